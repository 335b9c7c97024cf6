/**
 * The features table: the only code that runs SQL on it. Public reads and writes are confined to
 * a key's scope (project + environment) and, for reads, to public items; management reads and
 * writes see every item of a project in both environments. Votes and comments live in
 * store-votes.ts and store-comments.ts, merging in store-merge.ts.
 */
import { bool, type Database, type Queryable, type SqlValue } from '../../db/database.ts';
import type { KeyEnvironment } from '../../kernel/api-keys.ts';
import type { Scope } from '../../kernel/scope.ts';
import { newId, nowIso } from '../../kernel/ids.ts';
import { emitDomainEvent } from '../../db/domain-events.ts';
import type { FeatureStatus } from './schemas.ts';
import { STATUS_LABELS } from './status-labels.ts';
import { Assignments } from '../../db/assignments.ts';
import { unlinkBugsFromFeature } from '../reports/index.ts';
import { detachEntriesFromFeature } from '../changelog/index.ts';
import { recordAudit } from '../audit/index.ts';

export interface FeatureRow {
  id: string;
  project_id: string;
  environment: KeyEnvironment;
  title: string;
  description: string;
  type: 'feature' | 'bug';
  status: FeatureStatus;
  internal: number;
  channel: string | null;
  contact_email: string | null;
  metadata: string | null;
  developer_notes: string | null;
  /** The official response given with the latest status change (issue 30). */
  status_response?: string | null;
  status_response_at?: string | null;
  vote_count: number;
  comment_count: number;
  created_at: string;
  updated_at: string;
  /** When the team first acted on it (status, edit, reply, "mark triaged"); null: needs triage. */
  triaged_at?: string | null;
  /** The release it shipped in when that release went live (issue 33); shown while it is done. */
  released_in?: string | null;
  /** The monthly revenue of its voters' companies (issue 30; kept by store-value.ts). */
  value?: number;
}

export interface NewFeature {
  title: string;
  description: string;
  type: 'feature' | 'bug';
  status: FeatureStatus;
  internal: boolean;
  channel?: string | undefined;
  contactEmail?: string | undefined;
  metadata?: Record<string, unknown> | undefined;
  /** Moderation holds it until the team approves (the board, with moderation on). */
  held?: boolean | undefined;
  /** The board user who submitted it. */
  boardUserId?: string | undefined;
}

/** The error event id a report carries in its metadata (the widget's `errorEventId`), if any. */
export function errorEventIdOf(metadata: Record<string, unknown> | undefined): string | undefined {
  const id = metadata?.['errorEventId'];
  return typeof id === 'string' && id.length > 0 && id.length <= 100 ? id : undefined;
}

export async function insertFeature(db: Queryable, scope: Scope, input: NewFeature): Promise<FeatureRow> {
  const now = nowIso();
  const row: FeatureRow = {
    id: newId('feat'),
    project_id: scope.projectId,
    environment: scope.environment,
    title: input.title,
    description: input.description,
    type: input.type,
    status: input.status,
    internal: bool(input.internal),
    channel: input.channel ?? null,
    contact_email: input.contactEmail ?? null,
    metadata: input.metadata ? JSON.stringify(input.metadata) : null,
    developer_notes: null,
    vote_count: 0,
    comment_count: 0,
    created_at: now,
    updated_at: now,
  };
  const write = async (tx: Queryable) => {
    await insertRow(tx, row, input);
    await emitDomainEvent(tx, 'feature.created', {
      projectId: row.project_id,
      featureId: row.id,
      environment: row.environment,
      title: row.title,
      type: row.type,
      status: row.status,
      internal: row.internal === 1,
      errorEventId: errorEventIdOf(input.metadata),
    });
  };
  // The insert and what reacts to it (a webhook's outbox row) commit together: in the caller's
  // transaction when given one, else in one of their own.
  if (typeof (db as Partial<Database>).transaction === 'function') await (db as Database).transaction(write);
  else await write(db);
  return row;
}

async function insertRow(db: Queryable, row: FeatureRow, input: NewFeature): Promise<void> {
  await db.run(
    `INSERT INTO features (id, project_id, environment, title, description, type, status, internal, channel,
       contact_email, metadata, developer_notes, vote_count, comment_count, created_at, updated_at, held, board_user_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      row.id,
      row.project_id,
      row.environment,
      row.title,
      row.description,
      row.type,
      row.status,
      row.internal,
      row.channel,
      row.contact_email,
      row.metadata,
      row.developer_notes,
      row.vote_count,
      row.comment_count,
      row.created_at,
      row.updated_at,
      input.held ? 1 : 0,
      input.boardUserId ?? null,
    ],
  );
}

/** Any item of the scope, internal ones included (for writes such as PATCH). */
export async function findFeature(db: Queryable, scope: Scope, id: string): Promise<FeatureRow | undefined> {
  return db.get<FeatureRow>('SELECT * FROM features WHERE id = ? AND project_id = ? AND environment = ?', [
    id,
    scope.projectId,
    scope.environment,
  ]);
}

/** An item a public read may show: in the scope and not internal. */
export async function findPublicFeature(db: Queryable, scope: Scope, id: string): Promise<FeatureRow | undefined> {
  return db.get<FeatureRow>(
    'SELECT * FROM features WHERE id = ? AND project_id = ? AND environment = ? AND internal = 0 AND held = 0',
    [id, scope.projectId, scope.environment],
  );
}

export interface FeatureFilter {
  status?: string | undefined;
  type?: string | undefined;
  limit: number;
  offset: number;
}

/**
 * Public items only; the internal filter runs in SQL, before LIMIT and OFFSET. Newest first along
 * features_public_newest, or its status or type variant when filtered (with both, the status
 * one, the type checked row by row): a page reads its rows (and the offset's) and stops.
 */
export function publicFeaturesQuery(scope: Scope, filter: FeatureFilter): ListQuery {
  const where = ['project_id = ?', 'environment = ?', 'internal = 0', 'held = 0'];
  const params: SqlValue[] = [scope.projectId, scope.environment];
  if (filter.status) {
    where.push('status = ?');
    params.push(filter.status);
  }
  if (filter.type) {
    where.push('type = ?');
    params.push(filter.type);
  }
  params.push(filter.limit, filter.offset);
  return {
    sql: `SELECT id, project_id, title, status, type, vote_count, comment_count, created_at FROM features
      WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
    params,
  };
}

export async function listPublicFeatures(db: Queryable, scope: Scope, filter: FeatureFilter): Promise<FeatureRow[]> {
  const { sql, params } = publicFeaturesQuery(scope, filter);
  return db.all<FeatureRow>(sql, params);
}

export interface FeatureChanges {
  title?: string | undefined;
  description?: string | undefined;
  type?: 'feature' | 'bug' | undefined;
  status?: FeatureStatus | undefined;
  internal?: boolean | undefined;
  /** null clears the notes. */
  developerNotes?: string | null | undefined;
  /** With a status change: the team's official response, shown on the idea and told to followers. */
  response?: string | undefined;
  /** With a status change: false tells no follower (default true). */
  notify?: boolean | undefined;
}

/**
 * Changes an item and returns it as changed; undefined when it is not there (never was, or a
 * DELETE got there first): no re-read that a racing DELETE could empty. A Scope confines the
 * change to one key environment (public API, MCP); a bare project id reaches both (management).
 *
 * The one writer of a feature's status (management PATCH, public PATCH, the MCP tool): a change
 * of status locks the row first, reads the status it had, and emits `feature.status-changed` in
 * the same transaction when the status really moved (followers' e-mails are queued by it); a
 * change of the internal flag likewise emits `feature.visibility-changed`.
 */
export async function updateFeature(
  db: Database,
  where: Scope | { projectId: string },
  id: string,
  changes: FeatureChanges,
): Promise<FeatureRow | undefined> {
  if (changes.status === undefined && changes.internal === undefined) return changeFeature(db, where, id, changes);
  return db.transaction((tx) => changeFeature(tx, where, id, changes));
}

/**
 * The body of updateFeature, inside the caller's transaction when the status changes (a bulk
 * change runs it once per item in one transaction): the row lock, the change, and
 * `feature.status-changed` when the status really moved.
 */
export async function changeFeature(
  tx: Queryable,
  where: Scope | { projectId: string },
  id: string,
  changes: FeatureChanges,
  cause: { shippedIn?: string; releasedIn?: { version: string; entryId: string | null } } = {},
): Promise<FeatureRow | undefined> {
  const now = nowIso();
  const columns = new Assignments()
    .set('updated_at', now)
    .set('title', changes.title)
    .set('description', changes.description)
    .set('type', changes.type)
    .set('status', changes.status)
    .set('internal', changes.internal === undefined ? undefined : bool(changes.internal))
    .set('developer_notes', changes.developerNotes)
    .set('released_in', cause.releasedIn?.version);
  const inEnvironment = 'environment' in where;
  const match = `id = ? AND project_id = ?${inEnvironment ? ' AND environment = ?' : ''}`;
  const matchParams = inEnvironment ? [id, where.projectId, where.environment] : [id, where.projectId];
  // Any change the team makes triages the item (the first time).
  const update = async () => {
    const [row] = await tx.all<FeatureRow>(
      `UPDATE features SET ${columns.sql}, triaged_at = COALESCE(triaged_at, ?) WHERE ${match} RETURNING *`,
      [...columns.params, now, ...matchParams],
    );
    return row;
  };
  if (changes.status === undefined && changes.internal === undefined) return update();
  // The row lock first (a no-op UPDATE), so a concurrent change of status waits and reads ours.
  const [before] = await tx.all<Pick<FeatureRow, 'status' | 'internal'>>(
    `UPDATE features SET vote_count = vote_count WHERE ${match} RETURNING status, internal`,
    matchParams,
  );
  if (!before) return undefined;
  let row = await update();
  // The official response belongs to the latest status change: a new one replaces it (a change
  // without one clears it); setting the status it already has keeps it unless one is given.
  if (row && changes.status !== undefined && (row.status !== before.status || changes.response !== undefined)) {
    [row] = await tx.all<FeatureRow>(
      'UPDATE features SET status_response = ?, status_response_at = ? WHERE id = ? RETURNING *',
      [changes.response ?? null, changes.response ? nowIso() : null, row.id],
    );
  }
  if (row && row.status !== before.status) {
    await emitDomainEvent(tx, 'feature.status-changed', {
      projectId: row.project_id,
      featureId: row.id,
      environment: row.environment,
      title: row.title,
      from: before.status,
      to: row.status,
      notify: changes.notify ?? true,
      response: row.status_response ?? null,
      ...(cause.shippedIn ? { shippedIn: cause.shippedIn } : {}),
      ...(cause.releasedIn ? { releasedIn: cause.releasedIn } : {}),
    });
  }
  if (row && Number(row.internal) !== Number(before.internal)) {
    await emitDomainEvent(tx, 'feature.visibility-changed', {
      projectId: row.project_id,
      featureId: row.id,
      environment: row.environment,
      title: row.title,
      internal: Number(row.internal) === 1,
    });
  }
  return row;
}

/**
 * Locks the given items of the project (in id order, so two bulk changes cannot deadlock) and
 * returns the ids the project has; an id of another project is simply not among them.
 */
export async function lockFeatures(tx: Queryable, projectId: string, ids: readonly string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (const id of [...new Set(ids)].sort()) {
    if (await lockFeature(tx, projectId, id)) found.add(id);
  }
  return found;
}

// Management: every item of a project, internal ones included, in both key environments. The
// filtered list (tags, trending) is management-read-model.ts.

export async function getFeature(db: Queryable, projectId: string, id: string): Promise<FeatureRow | undefined> {
  return db.get<FeatureRow>('SELECT * FROM features WHERE id = ? AND project_id = ?', [id, projectId]);
}

/**
 * Deletes a feature with its votes and comments (and, through their foreign keys, its tags and
 * follows). Changelog entries linked to it keep the status
 * it had (frozen into their own status fields) and become standalone, so a published entry
 * does not lose its label.
 */
export async function deleteFeature(
  db: Database,
  projectId: string,
  id: string,
  options: { onlyHeld?: boolean } = {},
): Promise<boolean> {
  return db.transaction(async (tx) => {
    // Lock the feature's row first (a no-op UPDATE), as every other writer of it does before
    // touching its children: a merge or a PATCH racing this delete then waits for it or goes
    // first, never crosses it, and the status frozen into changelog entries is the last one.
    // `onlyHeld` (rejecting from the moderation queue): an idea approved meanwhile stays.
    const [feature] = await tx.all<
      Pick<FeatureRow, 'status' | 'title' | 'type' | 'environment' | 'vote_count' | 'comment_count'>
    >(
      `UPDATE features SET vote_count = vote_count WHERE id = ? AND project_id = ?${options.onlyHeld ? ' AND held = 1' : ''}
       RETURNING status, title, type, environment, vote_count, comment_count`,
      [id, projectId],
    );
    if (!feature) return false;
    await detachEntriesFromFeature(tx, id, { key: feature.status, label: STATUS_LABELS[feature.status] });
    await unlinkBugsFromFeature(tx, id);
    const { changes } = await tx.run('DELETE FROM features WHERE id = ? AND project_id = ?', [id, projectId]);
    await recordAudit(tx, {
      projectId,
      action: options.onlyHeld ? 'feature.rejected' : 'feature.deleted',
      target: { type: 'feature', id },
      before: {
        title: feature.title,
        type: feature.type,
        status: feature.status,
        environment: feature.environment,
        voteCount: Number(feature.vote_count),
        commentCount: Number(feature.comment_count),
      },
      after: null,
    });
    return changes === 1;
  });
}

export type RoadmapRow = Pick<
  FeatureRow,
  'id' | 'title' | 'type' | 'status' | 'vote_count' | 'comment_count' | 'created_at' | 'released_in'
>;

/** A statement and its parameters, built apart from running it so tests can read its plan. */
export interface ListQuery {
  sql: string;
  params: SqlValue[];
}

/**
 * Public items of the given statuses, most voted then newest, capped at `limit` over all columns.
 * One ordered range of features_public_status_top per status, merged and cut at `limit`: it reads
 * at most `limit` rows plus one per column, however large the project, and never sorts. SQLite
 * merges a compound SELECT's arms in index order (MERGE (UNION ALL)); PostgreSQL needs each arm
 * ordered and limited in parentheses to plan a Merge Append of backward index scans (without,
 * it sorts the project's rows).
 */
export function roadmapQuery(
  dialect: Database['dialect'],
  scope: Scope,
  statuses: readonly string[],
  limit: number,
): ListQuery {
  const order = 'ORDER BY vote_count DESC, created_at DESC, id DESC';
  const column = `SELECT id, title, type, status, vote_count, comment_count, created_at, released_in FROM features
      WHERE project_id = ? AND environment = ? AND internal = 0 AND held = 0 AND status = ?`;
  const params = statuses.flatMap((status) =>
    dialect === 'postgres'
      ? [scope.projectId, scope.environment, status, limit]
      : [scope.projectId, scope.environment, status],
  );
  const sql =
    dialect === 'postgres'
      ? `SELECT * FROM (${statuses.map(() => `(${column} ${order} LIMIT ?)`).join('\n    UNION ALL ')}) AS roadmap ${order} LIMIT ?`
      : `${statuses.map(() => column).join('\n    UNION ALL ')} ${order} LIMIT ?`;
  return { sql, params: [...params, limit] };
}

export async function listRoadmapItems(
  db: Database,
  scope: Scope,
  statuses: readonly string[],
  limit: number,
): Promise<RoadmapRow[]> {
  if (statuses.length === 0) return [];
  const { sql, params } = roadmapQuery(db.dialect, scope, statuses, limit);
  return db.all<RoadmapRow>(sql, params);
}

/**
 * Locks a feature's row for the rest of the transaction (a no-op UPDATE takes the row lock in
 * PostgreSQL; SQLite already holds its write lock) and says whether the project has it. Every
 * writer of a feature's votes or comments takes this lock first, so the counters stay exact.
 */
export async function lockFeature(tx: Queryable, projectId: string, featureId: string): Promise<boolean> {
  const { changes } = await tx.run('UPDATE features SET vote_count = vote_count WHERE id = ? AND project_id = ?', [
    featureId,
    projectId,
  ]);
  return changes === 1;
}

/** The same lock on a public feature of the scope. */
export async function lockPublicFeature(tx: Queryable, scope: Scope, featureId: string): Promise<boolean> {
  const { changes } = await tx.run(
    'UPDATE features SET vote_count = vote_count WHERE id = ? AND project_id = ? AND environment = ? AND internal = 0 AND held = 0',
    [featureId, scope.projectId, scope.environment],
  );
  return changes === 1;
}

/**
 * Counts a new comment on a public feature of the scope; false when there is none. The UPDATE
 * also takes the row lock, so the comment's insert that follows shares it.
 */
export async function countPublicComment(tx: Queryable, scope: Scope, featureId: string): Promise<boolean> {
  const { changes } = await tx.run(
    'UPDATE features SET comment_count = comment_count + 1 WHERE id = ? AND project_id = ? AND environment = ? AND internal = 0 AND held = 0',
    [featureId, scope.projectId, scope.environment],
  );
  return changes === 1;
}

/** Moves a feature's vote or comment counter by `delta` (after its row was locked). */
export async function bumpCounter(
  tx: Queryable,
  featureId: string,
  counter: 'vote_count' | 'comment_count',
  delta: 1 | -1,
): Promise<void> {
  await tx.run(`UPDATE features SET ${counter} = ${counter} ${delta > 0 ? '+' : '-'} 1 WHERE id = ?`, [featureId]);
}

export async function featureCounts(
  tx: Queryable,
  featureId: string,
): Promise<{ voteCount: number; commentCount: number }> {
  const row = await tx.get<{ vote_count: number; comment_count: number }>(
    'SELECT vote_count, comment_count FROM features WHERE id = ?',
    [featureId],
  );
  return { voteCount: Number(row?.vote_count ?? 0), commentCount: Number(row?.comment_count ?? 0) };
}

/** Seed only: gives a demo item a vote count and an age without creating votes or waiting. */
export async function backdateFeature(
  db: Queryable,
  id: string,
  stats: { voteCount: number; createdAt: string },
): Promise<void> {
  await db.run('UPDATE features SET vote_count = ?, created_at = ? WHERE id = ?', [
    stats.voteCount,
    stats.createdAt,
    id,
  ]);
}

/**
 * Marks items of the project as triaged (the team has looked at them) without changing anything
 * else; an item already triaged keeps its first time. Returns the ids the project has.
 */
export async function markTriaged(db: Queryable, projectId: string, ids: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  const now = nowIso();
  for (const id of ids) {
    const [row] = await db.all<{ id: string }>(
      'UPDATE features SET triaged_at = COALESCE(triaged_at, ?) WHERE id = ? AND project_id = ? RETURNING id',
      [now, id, projectId],
    );
    if (row) found.push(row.id);
  }
  return found;
}
