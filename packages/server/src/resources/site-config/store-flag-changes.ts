/**
 * The store of flag_changes (issue 33): one row per change of a flag, written in the change's
 * transaction by service.ts, read as a flag's history (newest first, by cursor: ids are
 * time-ordered, so a page is a walk of (project_id, flag_key, id) however long the history is)
 * and as the changes of a project in a time range (suspect flags of an error group).
 */
import type { Queryable } from '../../db/database.ts';
import { newId, nowIso } from '../../kernel/ids.ts';

export interface FlagChangeRow {
  id: string;
  project_id: string;
  flag_key: string;
  action: 'created' | 'changed' | 'deleted';
  environment: string | null;
  old_value: string | null;
  new_value: string | null;
  actor_type: string;
  actor_id: string | null;
  actor_name: string | null;
  created_at: string;
}

/** Who made a change: a team member signed in (dashboard), a personal access token (CLI, API), an MCP client, the server. */
export interface FlagActor {
  type: 'member' | 'token' | 'api-key' | 'oauth' | 'system';
  id: string | null;
  name: string | null;
}

export interface NewFlagChange {
  action: FlagChangeRow['action'];
  environment: string | null;
  oldValue: unknown;
  newValue: unknown;
}

export async function insertFlagChange(
  tx: Queryable,
  projectId: string,
  flagKey: string,
  change: NewFlagChange,
  actor: FlagActor,
): Promise<void> {
  const json = (value: unknown) => (value === undefined || value === null ? null : JSON.stringify(value));
  await tx.run(
    `INSERT INTO flag_changes (id, project_id, flag_key, action, environment, old_value, new_value, actor_type, actor_id, actor_name, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      newId('flagchg'),
      projectId,
      flagKey,
      change.action,
      change.environment,
      json(change.oldValue),
      json(change.newValue),
      actor.type,
      actor.id,
      actor.name,
      nowIso(),
    ],
  );
}

/** One page of a flag's changes, newest first, after the change `before` (a cursor: its id). */
export async function listFlagChanges(
  db: Queryable,
  projectId: string,
  flagKey: string,
  before: string | undefined,
  limit: number,
): Promise<{ rows: FlagChangeRow[]; nextCursor: string | null }> {
  const rows = await db.all<FlagChangeRow>(
    `SELECT * FROM flag_changes WHERE project_id = ? AND flag_key = ?${before === undefined ? '' : ' AND id < ?'}
      ORDER BY id DESC LIMIT ?`,
    [projectId, flagKey, ...(before === undefined ? [] : [before]), limit + 1],
  );
  const more = rows.length > limit;
  const shown = more ? rows.slice(0, limit) : rows;
  return { rows: shown, nextCursor: more ? shown[shown.length - 1]!.id : null };
}

/** A project's flag changes from `from` (inclusive) to `to` (inclusive), newest first, at most `limit`. */
export async function flagChangesBetween(
  db: Queryable,
  projectId: string,
  from: string,
  to: string,
  limit = 50,
): Promise<FlagChangeRow[]> {
  return db.all<FlagChangeRow>(
    `SELECT * FROM flag_changes WHERE project_id = ? AND created_at >= ? AND created_at <= ?
      ORDER BY created_at DESC, id DESC LIMIT ?`,
    [projectId, from, to, limit],
  );
}
