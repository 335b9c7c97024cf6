import type { Database, Queryable } from '../../db/database.ts';
import { newId, nowIso } from '../../kernel/ids.ts';
import type { Scope } from './store.ts';

export interface CommentRow {
  id: string;
  feature_id: string;
  body: string;
  author_name: string | null;
  created_at: string;
}

export async function listComments(db: Queryable, featureId: string, limit: number, offset: number): Promise<CommentRow[]> {
  return db.all<CommentRow>(
    'SELECT * FROM comments WHERE feature_id = ? ORDER BY created_at ASC, id ASC LIMIT ? OFFSET ?',
    [featureId, limit, offset],
  );
}

/** Adds a comment and bumps `comment_count` in one transaction; undefined when the feature is not public. */
export async function insertComment(
  db: Database,
  scope: Scope,
  featureId: string,
  input: { body: string; authorName?: string | undefined },
): Promise<CommentRow | undefined> {
  return db.transaction(async (tx) => {
    const { changes } = await tx.run(
      'UPDATE features SET comment_count = comment_count + 1 WHERE id = ? AND project_id = ? AND environment = ? AND internal = 0',
      [featureId, scope.projectId, scope.environment],
    );
    if (changes !== 1) return undefined;
    const row: CommentRow = {
      id: newId('cmt'),
      feature_id: featureId,
      body: input.body,
      author_name: input.authorName ?? null,
      created_at: nowIso(),
    };
    await tx.run('INSERT INTO comments (id, feature_id, body, author_name, created_at) VALUES (?, ?, ?, ?, ?)', [
      row.id, row.feature_id, row.body, row.author_name, row.created_at,
    ]);
    return row;
  });
}
