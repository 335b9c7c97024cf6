/**
 * The store of people, their aliases and their companies (issue 30): with store-import.ts (an
 * import's batch of people), the only code that writes `people`, `person_aliases` and `companies`.
 *
 * A person belongs to one project. The writes of other resources call `touchPerson` in their own
 * transaction (a vote, a contact e-mail): one UPDATE when the alias is known, which is the usual
 * case; a new alias inserts the person and the alias once, whatever runs concurrently (the
 * alias's primary key decides, the loser's person row is removed again).
 */
import type { Queryable } from '../../db/database.ts';
import { placeholders } from '../../db/database.ts';
import { newId, nowIso } from '../../kernel/ids.ts';

export type AliasKind = 'voter_id' | 'board_user' | 'email';

export interface PersonRow {
  id: string;
  project_id: string;
  external_id: string | null;
  board_user_id: string | null;
  email: string | null;
  name: string | null;
  avatar_url: string | null;
  company_id: string | null;
  first_seen_at: string;
  last_seen_at: string;
}

export interface CompanyRow {
  id: string;
  project_id: string;
  external_id: string;
  name: string | null;
  plan: string | null;
  monthly_revenue: number | null;
}

/** What the host app tells about a person (SSO claims, an identify call). */
export interface PersonFacts {
  email?: string | undefined;
  name?: string | undefined;
  avatarUrl?: string | undefined;
  externalId?: string | undefined;
  company?: CompanyFacts | undefined;
}

export interface CompanyFacts {
  externalId: string;
  name?: string | undefined;
  plan?: string | undefined;
  monthlyRevenue?: number | undefined;
}

/** The person known by this alias, made (without a name) the first time; answers its id. */
export async function touchPerson(tx: Queryable, projectId: string, kind: AliasKind, value: string): Promise<string> {
  const now = nowIso();
  const [known] = await tx.all<{ id: string }>(
    `UPDATE people SET last_seen_at = ? WHERE id = (
       SELECT person_id FROM person_aliases WHERE project_id = ? AND kind = ? AND value = ?) RETURNING id`,
    [now, projectId, kind, value],
  );
  if (known) return known.id;
  const id = newId('per');
  await tx.run('INSERT INTO people (id, project_id, email, first_seen_at, last_seen_at) VALUES (?, ?, ?, ?, ?)', [
    id,
    projectId,
    kind === 'email' ? value : null,
    now,
    now,
  ]);
  const { changes } = await tx.run(
    'INSERT INTO person_aliases (project_id, kind, value, person_id) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING',
    [projectId, kind, value, id],
  );
  if (changes === 1) return id;
  await tx.run('DELETE FROM people WHERE id = ?', [id]);
  return (await aliasOwner(tx, projectId, kind, value))!;
}

async function aliasOwner(tx: Queryable, projectId: string, kind: AliasKind, value: string) {
  const row = await tx.get<{ person_id: string }>(
    'SELECT person_id FROM person_aliases WHERE project_id = ? AND kind = ? AND value = ?',
    [projectId, kind, value],
  );
  return row?.person_id;
}

async function addAlias(tx: Queryable, projectId: string, kind: AliasKind, value: string, personId: string) {
  await tx.run(
    `INSERT INTO person_aliases (project_id, kind, value, person_id) VALUES (?, ?, ?, ?)
     ON CONFLICT (project_id, kind, value) DO UPDATE SET person_id = excluded.person_id`,
    [projectId, kind, value, personId],
  );
}

/**
 * A board user signed in (by e-mail link or SSO): their person, found by the board user or by
 * the address (a contact e-mail seen before), made otherwise, and filled with what is known.
 * The board user's votes (`board:<id>`) are the person's.
 */
export async function identifyBoardUser(
  tx: Queryable,
  projectId: string,
  user: { id: string; email: string; name: string | null; externalId?: string | undefined },
  facts: PersonFacts = {},
): Promise<string> {
  const personId =
    (await aliasOwner(tx, projectId, 'board_user', user.id)) ??
    (await aliasOwner(tx, projectId, 'email', user.email)) ??
    (await touchPerson(tx, projectId, 'board_user', user.id));
  await addAlias(tx, projectId, 'board_user', user.id, personId);
  await addAlias(tx, projectId, 'voter_id', `board:${user.id}`, personId);
  await addAlias(tx, projectId, 'email', user.email, personId);
  const valuedBefore = await valueKey(tx, personId);
  const revenueBefore = facts.company ? await companyRevenue(tx, projectId, facts.company.externalId) : undefined;
  const companyId = facts.company ? await upsertCompany(tx, projectId, facts.company) : undefined;
  await tx.run(
    `UPDATE people SET board_user_id = ?, email = ?, name = COALESCE(?, name), avatar_url = COALESCE(?, avatar_url),
       external_id = COALESCE(?, external_id), company_id = COALESCE(?, company_id), last_seen_at = ? WHERE id = ?`,
    [
      user.id,
      user.email,
      facts.name ?? user.name,
      facts.avatarUrl ?? null,
      user.externalId ?? null,
      companyId ?? null,
      nowIso(),
      personId,
    ],
  );
  // Ideas' value (resources/features) follows: a changed company link or revenue bumps the version.
  const revenueAfter = facts.company ? await companyRevenue(tx, projectId, facts.company.externalId) : undefined;
  if ((await valueKey(tx, personId)) !== valuedBefore || revenueAfter !== revenueBefore) {
    await bumpCompanyValueVersion(tx, projectId);
  }
  return personId;
}

/** The person's company and its revenue, as one comparable string. */
async function valueKey(tx: Queryable, personId: string): Promise<string> {
  const row = await tx.get<{ company_id: string | null; monthly_revenue: number | null }>(
    'SELECT p.company_id, c.monthly_revenue FROM people p LEFT JOIN companies c ON c.id = p.company_id WHERE p.id = ?',
    [personId],
  );
  return `${row?.company_id ?? ''}|${row?.monthly_revenue ?? ''}`;
}

async function companyRevenue(tx: Queryable, projectId: string, externalId: string): Promise<string> {
  const row = await tx.get<{ monthly_revenue: number | null }>(
    'SELECT monthly_revenue FROM companies WHERE project_id = ? AND external_id = ?',
    [projectId, externalId],
  );
  return row === undefined ? 'none' : String(row.monthly_revenue);
}

/**
 * A person's company or a company's revenue changed: the ideas' stored values (resources/features)
 * are behind until recomputed, which the next inbox read does when it sees this version move.
 */
async function bumpCompanyValueVersion(tx: Queryable, projectId: string): Promise<void> {
  await tx.run(
    `INSERT INTO company_value_versions (project_id, version) VALUES (?, 1)
     ON CONFLICT (project_id) DO UPDATE SET version = company_value_versions.version + 1`,
    [projectId],
  );
}

async function upsertCompany(tx: Queryable, projectId: string, company: CompanyFacts): Promise<string> {
  const now = nowIso();
  const [row] = await tx.all<{ id: string }>(
    `INSERT INTO companies (id, project_id, external_id, name, plan, monthly_revenue, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (project_id, external_id) DO UPDATE SET name = COALESCE(excluded.name, companies.name),
       plan = COALESCE(excluded.plan, companies.plan),
       monthly_revenue = COALESCE(excluded.monthly_revenue, companies.monthly_revenue), updated_at = excluded.updated_at
     RETURNING id`,
    [
      newId('co'),
      projectId,
      company.externalId,
      company.name ?? null,
      company.plan ?? null,
      company.monthlyRevenue ?? null,
      now,
      now,
    ],
  );
  return row!.id;
}

/** The people behind these aliases of one kind (e.g. a page of voter ids), by alias value. */
export async function peopleByAlias(
  db: Queryable,
  projectId: string,
  kind: AliasKind,
  values: string[],
): Promise<Map<string, PersonWithCompany>> {
  const result = new Map<string, PersonWithCompany>();
  const unique = [...new Set(values)];
  if (unique.length === 0) return result;
  const rows = await db.all<PersonWithCompany & { alias: string }>(
    `SELECT a.value AS alias, ${PERSON_COLUMNS}
     FROM person_aliases a JOIN people p ON p.id = a.person_id LEFT JOIN companies c ON c.id = p.company_id
     WHERE a.project_id = ? AND a.kind = ? AND a.value IN (${placeholders(unique.length)})`,
    [projectId, kind, ...unique],
  );
  for (const row of rows) result.set(row.alias, row);
  return result;
}

export interface PersonWithCompany extends PersonRow {
  company_external_id: string | null;
  company_name: string | null;
  company_plan: string | null;
  company_monthly_revenue: number | null;
}

const PERSON_COLUMNS = `p.*, c.external_id AS company_external_id, c.name AS company_name, c.plan AS company_plan,
  c.monthly_revenue AS company_monthly_revenue`;

export async function getPerson(db: Queryable, projectId: string, id: string) {
  return db.get<PersonWithCompany>(
    `SELECT ${PERSON_COLUMNS} FROM people p LEFT JOIN companies c ON c.id = p.company_id
     WHERE p.project_id = ? AND p.id = ?`,
    [projectId, id],
  );
}

/** The alias values of a person of one kind (their voter ids, their board user, their addresses). */
export async function aliasesOf(db: Queryable, personId: string, kind: AliasKind): Promise<string[]> {
  const rows = await db.all<{ value: string }>(
    'SELECT value FROM person_aliases WHERE person_id = ? AND kind = ? ORDER BY value',
    [personId, kind],
  );
  return rows.map((row) => row.value);
}

/**
 * A page of the project's people, most recently seen first, after the cursor (the last row's
 * `last_seen_at` and id); `q` matches name, e-mail or company name (case-insensitive, substring).
 */
export async function listPeople(
  db: Queryable,
  projectId: string,
  options: { q?: string | undefined; limit: number; after?: { seen: string; id: string } | undefined },
): Promise<PersonWithCompany[]> {
  const where = ['p.project_id = ?'];
  const params: (string | number)[] = [projectId];
  if (options.q) {
    const like = `%${options.q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    where.push(
      "(LOWER(COALESCE(p.name, '')) LIKE ? ESCAPE '\\' OR LOWER(COALESCE(p.email, '')) LIKE ? ESCAPE '\\' OR LOWER(COALESCE(c.name, '')) LIKE ? ESCAPE '\\')",
    );
    params.push(like, like, like);
  }
  if (options.after) {
    where.push('(p.last_seen_at < ? OR (p.last_seen_at = ? AND p.id < ?))');
    params.push(options.after.seen, options.after.seen, options.after.id);
  }
  return db.all<PersonWithCompany>(
    `SELECT ${PERSON_COLUMNS} FROM people p LEFT JOIN companies c ON c.id = p.company_id
     WHERE ${where.join(' AND ')} ORDER BY p.last_seen_at DESC, p.id DESC LIMIT ?`,
    [...params, options.limit],
  );
}

/** Every alias of a person (issue 36: what they are known by, for their export and erasure). */
export async function allAliasesOf(db: Queryable, personId: string): Promise<{ kind: AliasKind; value: string }[]> {
  return db.all<{ kind: AliasKind; value: string }>(
    'SELECT kind, value FROM person_aliases WHERE person_id = ? ORDER BY kind, value',
    [personId],
  );
}

/** Erasing a person (issue 36): the row and, with it, every alias that led to them. */
export async function deletePerson(tx: Queryable, projectId: string, personId: string): Promise<boolean> {
  await tx.run('DELETE FROM person_aliases WHERE project_id = ? AND person_id = ?', [projectId, personId]);
  const { changes } = await tx.run('DELETE FROM people WHERE project_id = ? AND id = ?', [projectId, personId]);
  return changes === 1;
}

export type EraseContent = 'anonymise' | 'delete';

/** What erasing a person does with their ideas and comments; 'anonymise' until set. */
export async function peopleSettings(db: Queryable, projectId: string): Promise<{ eraseContent: EraseContent }> {
  const row = await db.get<{ erase_content: EraseContent }>(
    'SELECT erase_content FROM people_settings WHERE project_id = ?',
    [projectId],
  );
  return { eraseContent: row?.erase_content ?? 'anonymise' };
}

export async function setPeopleSettings(db: Queryable, projectId: string, eraseContent: EraseContent): Promise<void> {
  await db.run(
    `INSERT INTO people_settings (project_id, erase_content, updated_at) VALUES (?, ?, ?)
     ON CONFLICT (project_id) DO UPDATE SET erase_content = excluded.erase_content, updated_at = excluded.updated_at`,
    [projectId, eraseContent, nowIso()],
  );
}

/** Who an idea the team files on someone's behalf belongs to: their person, address, board user and voter id. */
export interface OnBehalfAuthor {
  personId: string;
  email: string | null;
  boardUserId: string | null;
  /** The voter id their vote is cast under: one they voted with before (a board one first), else `person:<id>`. */
  voterId: string;
}

/**
 * The person the team files an idea for (issue 30): one of the project's people by id, or the
 * person with this address (made the first time, named when they have no name yet). Runs in the
 * caller's transaction. undefined when `personId` is not a person of the project.
 */
export async function onBehalfAuthor(
  tx: Queryable,
  projectId: string,
  who: { personId: string } | { email: string; name?: string | undefined },
): Promise<OnBehalfAuthor | undefined> {
  let personId: string;
  if ('personId' in who) {
    const row = await tx.get<{ id: string }>('SELECT id FROM people WHERE project_id = ? AND id = ?', [
      projectId,
      who.personId,
    ]);
    if (!row) return undefined;
    personId = row.id;
  } else {
    const email = who.email.trim().toLowerCase();
    personId = await touchPerson(tx, projectId, 'email', email);
    await tx.run('UPDATE people SET email = COALESCE(email, ?), name = COALESCE(name, ?) WHERE id = ?', [
      email,
      who.name?.trim() || null,
      personId,
    ]);
  }
  const person = (await tx.get<PersonRow>('SELECT * FROM people WHERE id = ?', [personId]))!;
  const voterIds = await aliasesOf(tx, personId, 'voter_id');
  let voterId = voterIds.find((id) => id.startsWith('board:')) ?? voterIds[0];
  if (voterId === undefined) {
    voterId = `person:${personId}`;
    await addAlias(tx, projectId, 'voter_id', voterId, personId);
  }
  const boardUsers = await aliasesOf(tx, personId, 'board_user');
  const emails = await aliasesOf(tx, personId, 'email');
  return {
    personId,
    email: person.email ?? emails[0] ?? null,
    boardUserId: person.board_user_id ?? boardUsers[0] ?? null,
    voterId,
  };
}

export interface CompanyWithPeople extends CompanyRow {
  people: number;
}

/** The project's companies by name (the inbox's company filter), each with how many of its people are known. */
export async function listCompanies(db: Queryable, projectId: string, limit: number): Promise<CompanyWithPeople[]> {
  return db.all<CompanyWithPeople>(
    `SELECT c.id, c.project_id, c.external_id, c.name, c.plan, c.monthly_revenue,
       (SELECT COUNT(*) FROM people p WHERE p.company_id = c.id) AS people
     FROM companies c WHERE c.project_id = ? ORDER BY LOWER(COALESCE(c.name, c.external_id)), c.id LIMIT ?`,
    [projectId, limit],
  );
}
/**
 * Merging a duplicate person into another (issue 30): every alias of `fromId` (their voter ids,
 * board users, addresses, and so their votes, comments and ideas) becomes `intoId`'s; what the
 * kept person lacks (name, e-mail, avatar, the app's id, board user, company) is filled from the
 * merged one; the first sighting is the earlier one, the last the later one. The merged row goes
 * and `person_merges` remembers where it went. In the caller's transaction.
 */
export async function mergePersonRows(tx: Queryable, projectId: string, fromId: string, intoId: string): Promise<void> {
  const from = await tx.get<PersonRow>('SELECT * FROM people WHERE project_id = ? AND id = ?', [projectId, fromId]);
  if (!from) return;
  await tx.run('UPDATE person_aliases SET person_id = ? WHERE project_id = ? AND person_id = ?', [
    intoId,
    projectId,
    fromId,
  ]);
  await tx.run('DELETE FROM people WHERE project_id = ? AND id = ?', [projectId, fromId]);
  await tx.run(
    `UPDATE people SET name = COALESCE(name, ?), email = COALESCE(email, ?), avatar_url = COALESCE(avatar_url, ?),
       external_id = COALESCE(external_id, ?), board_user_id = COALESCE(board_user_id, ?),
       company_id = COALESCE(company_id, ?),
       first_seen_at = CASE WHEN first_seen_at > ? THEN ? ELSE first_seen_at END,
       last_seen_at = CASE WHEN last_seen_at < ? THEN ? ELSE last_seen_at END
     WHERE project_id = ? AND id = ?`,
    [
      from.name,
      from.email,
      from.avatar_url,
      from.external_id,
      from.board_user_id,
      from.company_id,
      from.first_seen_at,
      from.first_seen_at,
      from.last_seen_at,
      from.last_seen_at,
      projectId,
      intoId,
    ],
  );
  const now = nowIso();
  // Earlier merges into the merged person now lead to the kept one.
  await tx.run('UPDATE person_merges SET into_id = ? WHERE project_id = ? AND into_id = ?', [
    intoId,
    projectId,
    fromId,
  ]);
  await tx.run(
    `INSERT INTO person_merges (project_id, from_id, into_id, merged_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (project_id, from_id) DO UPDATE SET into_id = excluded.into_id, merged_at = excluded.merged_at`,
    [projectId, fromId, intoId, now],
  );
}

/** The person a merged person went into, or undefined when `personId` was never merged. */
export async function mergedInto(db: Queryable, projectId: string, personId: string): Promise<string | undefined> {
  const row = await db.get<{ into_id: string }>(
    'SELECT into_id FROM person_merges WHERE project_id = ? AND from_id = ?',
    [projectId, personId],
  );
  return row?.into_id;
}
