import { placeholders, type Queryable } from '../../db/database.ts';
import type { FeatureRow, Scope } from './store.ts';

type RoadmapRow = Pick<FeatureRow, 'id' | 'title' | 'status' | 'vote_count' | 'comment_count' | 'created_at'>;

/** Public items of the given statuses, most voted then newest, capped at `limit` over all columns. */
export async function listRoadmapItems(db: Queryable, scope: Scope, statuses: readonly string[], limit: number): Promise<RoadmapRow[]> {
  return db.all<RoadmapRow>(
    `SELECT id, title, status, vote_count, comment_count, created_at FROM features
      WHERE project_id = ? AND environment = ? AND internal = 0 AND status IN (${placeholders(statuses.length)})
      ORDER BY vote_count DESC, created_at DESC, id DESC LIMIT ?`,
    [scope.projectId, scope.environment, ...statuses, limit],
  );
}
