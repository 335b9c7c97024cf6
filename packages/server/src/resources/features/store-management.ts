/**
 * Features as their owners manage them: every item of a project (internal ones included), in
 * both key environments. Votes and comments are moderated in moderation-store.ts; merging
 * lives in merge.ts.
 */
import { bool, type Database, type Queryable } from '../../db/database.ts';
import type { FeatureRow } from './store.ts';
import { STATUS_LABELS } from './status-labels.ts';
import type { KeyEnvironment } from '../../kernel/api-keys.ts';
import { nowIso } from '../../kernel/ids.ts';
import { page, searchClause, Where } from '../../management/support/query.ts';
import { Assignments } from '../../db/assignments.ts';

export type { FeatureRow };

export interface FeatureListFilter {
  environment?: KeyEnvironment | undefined;
  status?: string | undefined;
  type?: string | undefined;
  internal?: boolean | undefined;
  /** Text searched in title, description and developer notes. */
  q?: string | undefined;
  sort: 'newest' | 'oldest' | 'votes' | 'comments' | 'updated';
  limit: number;
  offset: number;
}

const ORDER: Record<FeatureListFilter['sort'], string> = {
  newest: 'created_at DESC, id DESC',
  oldest: 'created_at ASC, id ASC',
  votes: 'vote_count DESC, created_at DESC, id DESC',
  comments: 'comment_count DESC, created_at DESC, id DESC',
  updated: 'updated_at DESC, id DESC',
};

export async function listFeatures(db: Queryable, projectId: string, filter: FeatureListFilter) {
  const where = new Where('project_id = ?', projectId)
    .when(filter.environment, 'environment = ?', filter.environment ?? null)
    .when(filter.status, 'status = ?', filter.status ?? null)
    .when(filter.type, 'type = ?', filter.type ?? null)
    .when(filter.internal, 'internal = ?', bool(filter.internal ?? false));
  if (filter.q) {
    const search = searchClause(['title', 'description', 'developer_notes'], filter.q);
    where.add(search.sql, ...search.params);
  }
  return page<FeatureRow>(db, 'features', where, '*', ORDER[filter.sort], filter.limit, filter.offset);
}

export async function getFeature(db: Queryable, projectId: string, id: string): Promise<FeatureRow | undefined> {
  return db.get<FeatureRow>('SELECT * FROM features WHERE id = ? AND project_id = ?', [id, projectId]);
}

export interface FeatureChanges {
  title?: string | undefined;
  description?: string | undefined;
  type?: 'feature' | 'bug' | undefined;
  status?: string | undefined;
  internal?: boolean | undefined;
  /** null clears the notes. */
  developerNotes?: string | null | undefined;
}

/** Applies the given fields; false when the project has no such feature. */
export async function updateFeature(db: Queryable, projectId: string, id: string, changes: FeatureChanges): Promise<boolean> {
  const columns = new Assignments().set('updated_at', nowIso());
  columns.set('title', changes.title);
  columns.set('description', changes.description);
  columns.set('type', changes.type);
  columns.set('status', changes.status);
  columns.set('internal', changes.internal === undefined ? undefined : bool(changes.internal));
  columns.set('developer_notes', changes.developerNotes);
  const { changes: changed } = await db.run(`UPDATE features SET ${columns.sql} WHERE id = ? AND project_id = ?`, [
    ...columns.params,
    id,
    projectId,
  ]);
  return changed === 1;
}

/**
 * Deletes a feature with its votes and comments. Changelog entries linked to it keep the status
 * it had (frozen into their own status fields) and become standalone, so a published entry
 * does not lose its label.
 */
export async function deleteFeature(db: Database, projectId: string, id: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    // Lock the feature's row first (a no-op UPDATE), as every other writer of it does before
    // touching its children: a merge or a PATCH racing this delete then waits for it or goes
    // first, never crosses it, and the status frozen into changelog entries is the last one.
    const [feature] = await tx.all<Pick<FeatureRow, 'status'>>(
      'UPDATE features SET vote_count = vote_count WHERE id = ? AND project_id = ? RETURNING status',
      [id, projectId],
    );
    if (!feature) return false;
    await tx.run(
      'UPDATE changelog_entries SET status_key = ?, status_label = ?, feature_id = NULL WHERE feature_id = ?',
      [feature.status, STATUS_LABELS[feature.status], id],
    );
    await tx.run('UPDATE bug_reports SET feature_id = NULL WHERE feature_id = ?', [id]);
    const { changes } = await tx.run('DELETE FROM features WHERE id = ? AND project_id = ?', [id, projectId]);
    return changes === 1;
  });
}
