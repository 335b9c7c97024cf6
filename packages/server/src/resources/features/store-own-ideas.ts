/** The ideas a board user submitted (board or widget), for the widget's "my ideas" (issue 35). */
import type { Queryable } from '../../db/database.ts';
import type { Scope } from '../../kernel/scope.ts';
import type { FeatureRow } from './store.ts';

export type OwnIdeaRow = Pick<FeatureRow, 'id' | 'title' | 'status' | 'type' | 'vote_count' | 'created_at'>;

/** Newest first; internal items stay hidden even from their author, as everywhere in the public API. */
export async function listOwnIdeas(
  db: Queryable,
  scope: Scope,
  boardUserId: string,
  limit: number,
): Promise<OwnIdeaRow[]> {
  return db.all<OwnIdeaRow>(
    `SELECT id, title, status, type, vote_count, created_at FROM features
      WHERE project_id = ? AND environment = ? AND board_user_id = ? AND internal = 0
      ORDER BY created_at DESC, id DESC LIMIT ?`,
    [scope.projectId, scope.environment, boardUserId, limit],
  );
}
