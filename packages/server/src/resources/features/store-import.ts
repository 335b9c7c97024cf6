/**
 * Ideas, votes and comments brought in from another tool (resources/imports): the history as it
 * happened there (its dates, authors and statuses), written in the import's one transaction.
 * Unlike the surfaces' writes these emit no domain event: imported history is no news, so no
 * follower is e-mailed and no webhook fires for it (issue 36). Counters stay exact as usual.
 */
import { createHash } from 'node:crypto';
import { refreshFeatureValues } from './store-value.ts';
import { bool, placeholders, type Queryable } from '../../db/database.ts';
import type { KeyEnvironment } from '../../kernel/api-keys.ts';
import { newId, nowIso } from '../../kernel/ids.ts';
import type { FeatureStatus } from './schemas.ts';

export interface ImportedFeature {
  title: string;
  description: string;
  type: 'feature' | 'bug';
  status: FeatureStatus;
  contactEmail?: string | undefined;
  metadata?: Record<string, unknown> | undefined;
  createdAt: string;
}

/** Rows of a multi-row INSERT per statement (parameters stay far below either database's limit). */
const ROWS_PER_STATEMENT = 500;

/** An id for an idea about to be imported (the caller knows it before the row is written). */
export function newImportedFeatureId(): string {
  return newId('feat');
}

/** A new idea with the source's dates; it counts as triaged (the team saw it in the old tool). */
export async function insertImportedFeature(
  tx: Queryable,
  projectId: string,
  environment: KeyEnvironment,
  input: ImportedFeature,
): Promise<string> {
  const id = newImportedFeatureId();
  await insertImportedFeatures(tx, projectId, environment, [{ ...input, id }]);
  return id;
}

/**
 * Several new ideas, up to 500 rows per INSERT (an import of 10,000 ideas made 10,000 round trips
 * to PostgreSQL), each with the id the caller chose (newImportedFeatureId) and the source's dates.
 */
export async function insertImportedFeatures(
  tx: Queryable,
  projectId: string,
  environment: KeyEnvironment,
  rows: readonly (ImportedFeature & { id: string })[],
): Promise<void> {
  const now = nowIso();
  for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
    const chunk = rows.slice(start, start + ROWS_PER_STATEMENT);
    await tx.run(
      `INSERT INTO features (id, project_id, environment, title, description, type, status, internal, contact_email,
         metadata, vote_count, comment_count, created_at, updated_at, held, triaged_at)
       VALUES ${chunk.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, 0, ?, ?, 0, ?)').join(', ')}`,
      chunk.flatMap((input) => [
        input.id,
        projectId,
        environment,
        input.title,
        input.description,
        input.type,
        input.status,
        bool(false),
        input.contactEmail ?? null,
        input.metadata ? JSON.stringify(input.metadata) : null,
        input.createdAt,
        input.createdAt,
        now,
      ]),
    );
  }
}

/** Ideas or comments read per statement when a run looks at what earlier runs made. */
const READS_PER_STATEMENT = 500;

/** A short fingerprint of an imported item's text, so a run can hold one per item it made before. */
export function importDigest(...parts: readonly string[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 22);
}

/**
 * The ideas of the project among these ids (what earlier runs of an import made), each with the
 * digest of its title, description and status as stored now (importDigest(title, description,
 * status)): a second run tells its unchanged ideas (usually all) from this, with 20 reads for
 * 10,000 ideas instead of one each. An id missing from the answer was deleted here since.
 */
export async function importedFeatureDigests(
  tx: Queryable,
  projectId: string,
  ids: readonly string[],
): Promise<Map<string, string>> {
  const digests = new Map<string, string>();
  for (let start = 0; start < ids.length; start += READS_PER_STATEMENT) {
    const chunk = ids.slice(start, start + READS_PER_STATEMENT);
    const rows = await tx.all<{ id: string; title: string; description: string; status: string }>(
      `SELECT id, title, description, status FROM features WHERE project_id = ? AND id IN (${placeholders(chunk.length)})`,
      [projectId, ...chunk],
    );
    for (const row of rows) digests.set(row.id, importDigest(row.title, row.description, row.status));
  }
  return digests;
}

/**
 * The comments among these ids, each with its idea and the digest of its body (importDigest(body)),
 * as importedFeatureDigests does for ideas; the ids are ones an import made, all of the project.
 */
export async function importedCommentDigests(
  tx: Queryable,
  ids: readonly string[],
): Promise<Map<string, { featureId: string; digest: string }>> {
  const digests = new Map<string, { featureId: string; digest: string }>();
  for (let start = 0; start < ids.length; start += READS_PER_STATEMENT) {
    const chunk = ids.slice(start, start + READS_PER_STATEMENT);
    const rows = await tx.all<{ id: string; feature_id: string; body: string }>(
      `SELECT id, feature_id, body FROM comments WHERE id IN (${placeholders(chunk.length)})`,
      chunk,
    );
    for (const row of rows) digests.set(row.id, { featureId: row.feature_id, digest: importDigest(row.body) });
  }
  return digests;
}

/**
 * Brings an idea imported before up to date with the source: 'missing' when it was deleted here
 * since (the caller imports it anew), 'unchanged' when title, description and status agree.
 */
export async function updateImportedFeature(
  tx: Queryable,
  projectId: string,
  id: string,
  input: Pick<ImportedFeature, 'title' | 'description' | 'status'>,
): Promise<'updated' | 'unchanged' | 'missing'> {
  const row = await tx.get<{ title: string; description: string; status: string }>(
    'SELECT title, description, status FROM features WHERE id = ? AND project_id = ?',
    [id, projectId],
  );
  if (!row) return 'missing';
  if (row.title === input.title && row.description === input.description && row.status === input.status) {
    return 'unchanged';
  }
  await tx.run('UPDATE features SET title = ?, description = ?, status = ?, updated_at = ? WHERE id = ?', [
    input.title,
    input.description,
    input.status,
    nowIso(),
    id,
  ]);
  return 'updated';
}

export interface ImportedVote {
  featureId: string;
  voterId: string;
  createdAt: string;
}

/**
 * Votes with their dates, many in one statement (an import has tens of thousands), and each
 * feature's `vote_count` raised by the ones that were new in one more; a vote already there is
 * left alone. Answers how many were new.
 */
export async function insertImportedVotes(tx: Queryable, votes: readonly ImportedVote[]): Promise<number> {
  if (votes.length === 0) return 0;
  const added = await tx.all<{ feature_id: string }>(
    `INSERT INTO votes (feature_id, voter_id, created_at) VALUES ${votes.map(() => '(?, ?, ?)').join(', ')}
     ON CONFLICT (feature_id, voter_id) DO NOTHING RETURNING feature_id`,
    votes.flatMap((vote) => [vote.featureId, vote.voterId, vote.createdAt]),
  );
  const perFeature = new Map<string, number>();
  for (const { feature_id } of added) perFeature.set(feature_id, (perFeature.get(feature_id) ?? 0) + 1);
  if (perFeature.size > 0) {
    const entries = [...perFeature];
    await tx.run(
      `UPDATE features SET vote_count = vote_count + CASE id ${entries.map(() => 'WHEN ? THEN CAST(? AS INTEGER)').join(' ')} ELSE 0 END
       WHERE id IN (${placeholders(entries.length)})`,
      [...entries.flat(), ...entries.map(([id]) => id)],
    );
    // An imported voter may be a person of a valued company already (matched by e-mail).
    const feature = await tx.get<{ project_id: string }>('SELECT project_id FROM features WHERE id = ?', [
      entries[0]![0],
    ]);
    if (feature) await refreshFeatureValues(tx, feature.project_id, [...perFeature.keys()]);
  }
  return added.length;
}

export interface ImportedComment {
  body: string;
  authorName?: string | undefined;
  createdAt: string;
  /** A note the old tool kept for the team: imported as an internal note (never public, not counted). */
  internal: boolean;
}

export async function insertImportedComment(tx: Queryable, featureId: string, input: ImportedComment): Promise<string> {
  const id = newImportedCommentId();
  await insertImportedComments(tx, [{ ...input, id, featureId }]);
  return id;
}

/** An id for a comment about to be imported. */
export function newImportedCommentId(): string {
  return newId('cmt');
}

/**
 * Several new comments, up to 500 rows per INSERT, and each idea's `comment_count` raised by its
 * public ones in one more statement (internal notes are not counted).
 */
export async function insertImportedComments(
  tx: Queryable,
  rows: readonly (ImportedComment & { id: string; featureId: string })[],
): Promise<void> {
  for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
    const chunk = rows.slice(start, start + ROWS_PER_STATEMENT);
    await tx.run(
      `INSERT INTO comments (id, feature_id, body, author_name, held, team, internal, created_at)
       VALUES ${chunk.map(() => '(?, ?, ?, ?, 0, 0, ?, ?)').join(', ')}`,
      chunk.flatMap((input) => [
        input.id,
        input.featureId,
        input.body,
        input.authorName ?? null,
        bool(input.internal),
        input.createdAt,
      ]),
    );
    const perFeature = new Map<string, number>();
    for (const row of chunk) {
      if (!row.internal) perFeature.set(row.featureId, (perFeature.get(row.featureId) ?? 0) + 1);
    }
    if (perFeature.size > 0) {
      const entries = [...perFeature];
      await tx.run(
        `UPDATE features SET comment_count = comment_count + CASE id ${entries.map(() => 'WHEN ? THEN CAST(? AS INTEGER)').join(' ')} ELSE 0 END
         WHERE id IN (${placeholders(entries.length)})`,
        [...entries.flat(), ...entries.map(([id]) => id)],
      );
    }
  }
}

/** The body of a comment imported before, as in the source now; 'missing' when deleted here since. */
export async function updateImportedComment(
  tx: Queryable,
  featureId: string,
  id: string,
  body: string,
): Promise<'updated' | 'unchanged' | 'missing'> {
  const row = await tx.get<{ body: string }>('SELECT body FROM comments WHERE id = ? AND feature_id = ?', [
    id,
    featureId,
  ]);
  if (!row) return 'missing';
  if (row.body === body) return 'unchanged';
  await tx.run('UPDATE comments SET body = ? WHERE id = ?', [body, id]);
  return 'updated';
}
