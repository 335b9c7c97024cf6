/**
 * The people of another tool's export (resources/imports), written in a batch: matched by their
 * e-mail or voter id, made otherwise, a handful of statements whatever the batch's size. Part of
 * the people store (store.ts), split off as the one job of its own.
 */
import type { Queryable } from '../../db/database.ts';
import { placeholders } from '../../db/database.ts';
import { ConflictError } from '../../kernel/errors.ts';
import { newId, nowIso } from '../../kernel/ids.ts';
import type { AliasKind } from './store.ts';

/** A person of another tool's export (resources/imports), as importPeople takes them. */
export interface ImportedPerson {
  email?: string | undefined;
  name?: string | undefined;
  /** The id their imported votes carry: becomes their alias, so those votes are theirs. */
  voterId: string;
  /** The first sighting in the export: kept when earlier than the person's own. */
  seenAt?: string | undefined;
}

/** Aliases looked up, and people written, per statement (parameters far below either database's limit). */
const PEOPLE_PER_STATEMENT = 500;

const aliasKey = (kind: AliasKind, value: string) => `${kind}\u0000${value}`;

/** What a batch learnt of one person: the first name and e-mail given, the earliest sighting. */
interface LearntFacts {
  name?: string | undefined;
  email?: string | undefined;
  seenAt?: string | undefined;
}

/**
 * People of another tool's export, in order, as if one at a time: each matched by their e-mail
 * when the project knows it (or by their voter id), made otherwise, a later one finding the person
 * an earlier one matched or made; the name and e-mail fill missing ones, never replace known
 * ones; the first sighting moves earlier, never later. Their e-mail and voter id become aliases
 * of the person (taken over from another person, as every alias write does).
 *
 * A handful of statements per batch whatever its size: one read of the aliases, one of the
 * matched people, multi-row inserts of the new people and aliases, and an UPDATE only for a
 * matched person something changes for (none on a second run). One person at a time took about
 * nine round trips each; 2,000 people were most of an import's time on PostgreSQL (issue 36).
 *
 * A new person's own alias is inserted only if no one has it: when another transaction added it
 * since the read (a board sign-in by the same e-mail during the import), the import stops with a
 * 409 and stores nothing, rather than giving that alias to a second person.
 */
export async function importPeople(
  tx: Queryable,
  projectId: string,
  persons: readonly ImportedPerson[],
): Promise<{ id: string; created: boolean }[]> {
  const rows = persons.map((person) => ({
    email: person.email?.trim().toLowerCase() || undefined,
    name: person.name?.trim() || undefined,
    voterId: person.voterId,
    seenAt: person.seenAt,
  }));
  const owners = await aliasOwners(
    tx,
    projectId,
    rows.flatMap((row) => [...(row.email ? [aliasKey('email', row.email)] : []), aliasKey('voter_id', row.voterId)]),
  );
  const now = nowIso();
  const facts = new Map<string, LearntFacts>();
  const made: { id: string; primary: [AliasKind, string] }[] = [];
  const aliasWrites = new Map<string, { kind: AliasKind; value: string; personId: string }>();
  const results = rows.map((row) => {
    const known =
      (row.email ? owners.get(aliasKey('email', row.email)) : undefined) ??
      owners.get(aliasKey('voter_id', row.voterId));
    const id = known ?? newId('per');
    if (!known) made.push({ id, primary: row.email ? ['email', row.email] : ['voter_id', row.voterId] });
    for (const [kind, value] of [
      ['email', row.email],
      ['voter_id', row.voterId],
    ] as const) {
      if (!value) continue;
      const key = aliasKey(kind, value);
      if (owners.get(key) === id) continue;
      owners.set(key, id);
      aliasWrites.set(key, { kind, value, personId: id });
    }
    const fact: LearntFacts = facts.get(id) ?? {};
    fact.name ??= row.name;
    fact.email ??= row.email;
    if (row.seenAt && (!fact.seenAt || row.seenAt < fact.seenAt)) fact.seenAt = row.seenAt;
    facts.set(id, fact);
    return { id, created: !known };
  });
  const madeIds = new Set(made.map((person) => person.id));
  await updateMatchedPeople(
    tx,
    [...facts].filter(([id]) => !madeIds.has(id)),
  );
  for (let start = 0; start < made.length; start += PEOPLE_PER_STATEMENT) {
    const chunk = made.slice(start, start + PEOPLE_PER_STATEMENT);
    await tx.run(
      `INSERT INTO people (id, project_id, email, name, first_seen_at, last_seen_at)
       VALUES ${chunk.map(() => '(?, ?, ?, ?, ?, ?)').join(', ')}`,
      chunk.flatMap(({ id }) => {
        const fact = facts.get(id)!;
        const firstSeen = fact.seenAt && fact.seenAt < now ? fact.seenAt : now;
        return [id, projectId, fact.email ?? null, fact.name ?? null, firstSeen, now];
      }),
    );
    // Each new person's own alias first, only if still free (see above).
    const inserted = await tx.all<{ value: string }>(
      `INSERT INTO person_aliases (project_id, kind, value, person_id)
       VALUES ${chunk.map(() => '(?, ?, ?, ?)').join(', ')} ON CONFLICT DO NOTHING RETURNING value`,
      chunk.flatMap(({ id, primary: [kind, value] }) => [projectId, kind, value, id]),
    );
    if (inserted.length < chunk.length) {
      throw new ConflictError("The project's people changed while the import ran; run the import again");
    }
    for (const { id, primary } of chunk) {
      // Written just now, unless a later person of the batch took it over (it moves below).
      const key = aliasKey(...primary);
      if (aliasWrites.get(key)?.personId === id) aliasWrites.delete(key);
    }
  }
  const writes = [...aliasWrites.values()];
  for (let start = 0; start < writes.length; start += PEOPLE_PER_STATEMENT) {
    const chunk = writes.slice(start, start + PEOPLE_PER_STATEMENT);
    await tx.run(
      `INSERT INTO person_aliases (project_id, kind, value, person_id) VALUES ${chunk.map(() => '(?, ?, ?, ?)').join(', ')}
       ON CONFLICT (project_id, kind, value) DO UPDATE SET person_id = excluded.person_id`,
      chunk.flatMap((write) => [projectId, write.kind, write.value, write.personId]),
    );
  }
  return results;
}

/** The owners of these aliases (`aliasKey`s) that the project has, by key. */
async function aliasOwners(tx: Queryable, projectId: string, keys: readonly string[]): Promise<Map<string, string>> {
  const owners = new Map<string, string>();
  const values = [...new Set(keys.map((key) => key.slice(key.indexOf('\u0000') + 1)))];
  const wanted = new Set(keys);
  for (let start = 0; start < values.length; start += PEOPLE_PER_STATEMENT) {
    const chunk = values.slice(start, start + PEOPLE_PER_STATEMENT);
    const rows = await tx.all<{ kind: AliasKind; value: string; person_id: string }>(
      `SELECT kind, value, person_id FROM person_aliases
       WHERE project_id = ? AND kind IN ('email', 'voter_id') AND value IN (${placeholders(chunk.length)})`,
      [projectId, ...chunk],
    );
    for (const row of rows) {
      const key = aliasKey(row.kind, row.value);
      if (wanted.has(key)) owners.set(key, row.person_id);
    }
  }
  return owners;
}

/**
 * Fills what matched people lack (name, e-mail) and moves their first sighting earlier: one read
 * per batch, and an UPDATE only for a person it changes.
 */
async function updateMatchedPeople(tx: Queryable, matched: readonly [string, LearntFacts][]): Promise<void> {
  for (let start = 0; start < matched.length; start += PEOPLE_PER_STATEMENT) {
    const chunk = matched.slice(start, start + PEOPLE_PER_STATEMENT);
    const rows = await tx.all<{ id: string; name: string | null; email: string | null; first_seen_at: string }>(
      `SELECT id, name, email, first_seen_at FROM people WHERE id IN (${placeholders(chunk.length)})`,
      chunk.map(([id]) => id),
    );
    const current = new Map(rows.map((row) => [row.id, row]));
    for (const [id, fact] of chunk) {
      const row = current.get(id);
      if (!row) continue;
      const fills = (row.name === null && fact.name) || (row.email === null && fact.email);
      if (!fills && !(fact.seenAt && fact.seenAt < row.first_seen_at)) continue;
      // The same guards in SQL: a change another transaction made since the read is kept.
      const seen = fact.seenAt ? [fact.seenAt, fact.seenAt] : [];
      await tx.run(
        `UPDATE people SET name = COALESCE(name, ?), email = COALESCE(email, ?)${
          seen.length > 0 ? ', first_seen_at = CASE WHEN first_seen_at > ? THEN ? ELSE first_seen_at END' : ''
        } WHERE id = ?`,
        [fact.name ?? null, fact.email ?? null, ...seen, id],
      );
    }
  }
}
