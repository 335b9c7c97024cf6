import { bool, type Queryable, type SqlValue } from '../../db/database.ts';
import type { KeyEnvironment } from '../../kernel/api-keys.ts';
import { newId, nowIso } from '../../kernel/ids.ts';
import type { FeatureStatus } from './schemas.ts';
import { Assignments } from '../../db/assignments.ts';

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
  vote_count: number;
  comment_count: number;
  created_at: string;
  updated_at: string;
}

import type { Scope } from '../../kernel/scope.ts';

export type { Scope };

export interface NewFeature {
  title: string;
  description: string;
  type: 'feature' | 'bug';
  status: FeatureStatus;
  internal: boolean;
  channel?: string | undefined;
  contactEmail?: string | undefined;
  metadata?: Record<string, unknown> | undefined;
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
  await db.run(
    `INSERT INTO features (id, project_id, environment, title, description, type, status, internal, channel,
       contact_email, metadata, developer_notes, vote_count, comment_count, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      row.id, row.project_id, row.environment, row.title, row.description, row.type, row.status, row.internal,
      row.channel, row.contact_email, row.metadata, row.developer_notes, row.vote_count, row.comment_count,
      row.created_at, row.updated_at,
    ],
  );
  return row;
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
    'SELECT * FROM features WHERE id = ? AND project_id = ? AND environment = ? AND internal = 0',
    [id, scope.projectId, scope.environment],
  );
}

export interface FeatureFilter {
  status?: string | undefined;
  type?: string | undefined;
  limit: number;
  offset: number;
}

/** Public items only; the internal filter runs in SQL, before LIMIT and OFFSET. */
export async function listPublicFeatures(db: Queryable, scope: Scope, filter: FeatureFilter): Promise<FeatureRow[]> {
  const where = ['project_id = ?', 'environment = ?', 'internal = 0'];
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
  return db.all<FeatureRow>(
    `SELECT id, project_id, title, status, type, vote_count, comment_count, created_at FROM features
      WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
    params,
  );
}

export interface FeaturePatch {
  internal?: boolean | undefined;
  status?: FeatureStatus | undefined;
  developerNotes?: string | undefined;
}

/**
 * Changes an item of the scope and returns it as changed, in one statement; undefined when it is
 * not there (never was, or a DELETE got there first): no re-read that a racing DELETE could empty.
 */
export async function updateFeature(db: Queryable, scope: Scope, id: string, patch: FeaturePatch): Promise<FeatureRow | undefined> {
  const columns = new Assignments()
    .set('updated_at', nowIso())
    .set('internal', patch.internal === undefined ? undefined : bool(patch.internal))
    .set('status', patch.status)
    .set('developer_notes', patch.developerNotes);
  const [row] = await db.all<FeatureRow>(`UPDATE features SET ${columns.sql} WHERE id = ? AND project_id = ? AND environment = ? RETURNING *`, [
    ...columns.params,
    id,
    scope.projectId,
    scope.environment,
  ]);
  return row;
}
