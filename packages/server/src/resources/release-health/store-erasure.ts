/** A person's sessions, found and erased (issue 36's export and erasure), by the SDK's distinct id. */
import type { Queryable } from '../../db/database.ts';

/** A person's sessions (issue 36's export), by the SDK's distinct id: their id or address. */
export async function sessionsOfUser(db: Queryable, projectId: string, distinctIds: readonly string[], limit: number) {
  if (distinctIds.length === 0) return [];
  return db.all<{
    environment: string;
    sid: string;
    release: string;
    sdk_environment: string;
    started: string;
    status: string;
  }>(
    `SELECT environment, sid, release, sdk_environment, started, status FROM release_sessions
     WHERE project_id = ? AND distinct_id IN (${distinctIds.map(() => '?').join(', ')}) ORDER BY started DESC LIMIT ?`,
    [projectId, ...distinctIds, limit],
  );
}

/**
 * Erasing a person (issue 36): each of their distinct ids becomes a new random one in every
 * table, so sessions, users per hour and crash-free users count the same and link to nobody.
 */
export async function eraseSessionUser(tx: Queryable, projectId: string, distinctIds: readonly string[]) {
  let sessions = 0;
  for (const id of distinctIds) {
    const replacement = `erased:${crypto.randomUUID()}`;
    for (const table of ['release_session_users', 'release_users'] as const) {
      await tx.run(`UPDATE ${table} SET distinct_id = ? WHERE project_id = ? AND distinct_id = ?`, [
        replacement,
        projectId,
        id,
      ]);
    }
    sessions += (
      await tx.run('UPDATE release_sessions SET distinct_id = ? WHERE project_id = ? AND distinct_id = ?', [
        replacement,
        projectId,
        id,
      ])
    ).changes;
  }
  return sessions;
}
