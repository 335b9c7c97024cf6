/**
 * The upkeep of log_lines, log_line_spans and log_volume (issue 32), in bounded batches the lines
 * worker runs: lines past the retention (by their own time) are deleted, a group over its cap
 * keeps its newest `perGroup` lines and its first, per-minute counts older than
 * MINUTE_VOLUME_HOURS go; a span goes when its lines have. Every statement touches at most BATCH
 * lines (VOLUME_BATCH counts), found through an index (a group's lines through its spans).
 */
import type { Database, Queryable } from '../../db/database.ts';
import { groupLinesFloor, groupLinesFrom } from './store-line-reads.ts';

export const BATCH = 1000;

/**
 * The projects that have log groups (the worker goes project by project, on the project's time
 * index): a loose index scan, one seek on the project's index per project, where `DISTINCT
 * project_id` read every group (30 ms at 100,000 groups on the event loop, a second at 3,000,000).
 */
export async function projectsWithLogs(db: Queryable): Promise<string[]> {
  const rows = await db.all<{ id: string }>(
    `WITH RECURSIVE p(id) AS (
       SELECT MIN(project_id) FROM log_groups
       UNION ALL
       SELECT (SELECT MIN(project_id) FROM log_groups WHERE project_id > p.id) FROM p WHERE p.id IS NOT NULL
     ) SELECT id FROM p WHERE id IS NOT NULL`,
  );
  return rows.map((row) => row.id);
}

/** Deleted lines as the upkeep's deletes return them. */
interface Deleted {
  id: number | string;
  group_id: string;
  ts: string;
}

/**
 * Deletes up to BATCH of the project's lines older than `before`; returns how many. The spans of
 * the groups touched whose lines are all gone go too.
 */
export function expireLines(db: Database, projectId: string, before: string): Promise<number> {
  // One transaction: the delete, its spans and the tail (trimTail) see the same lines, with no
  // write in between that could take the ids the delete freed.
  return db.transaction(async (tx) => {
    // The outer `ts < ?` too: on PostgreSQL (partitions.ts) the delete then visits only the
    // partitions that can hold such lines (the edge day and DEFAULT; the keeper drops the days past).
    const deleted = await tx.all<Deleted>(
      `DELETE FROM log_lines WHERE ts < ? AND id IN (
        SELECT id FROM log_lines WHERE project_id = ? AND ts < ? ORDER BY ts, id LIMIT ${BATCH})
      RETURNING id, group_id, ts`,
      [before, projectId, before],
    );
    if (deleted.length === 0) return 0;
    // The batch's last line in (ts, id) order: no line before it is left, so a span whose lines
    // all come before it (a line of its time only up to its id) is empty.
    let last = deleted[0]!;
    for (const line of deleted)
      if (line.ts > last.ts || (line.ts === last.ts && Number(line.id) > Number(last.id))) last = line;
    const groups = [...new Set(deleted.map((line) => line.group_id))];
    await tx.run(
      `DELETE FROM log_line_spans WHERE group_id IN (${groups.map(() => '?').join(', ')})
        AND (max_ts < ? OR (max_ts = ? AND last_id <= CAST(? AS BIGINT)))`,
      [...groups, last.ts, last.ts, String(last.id)],
    );
    await trimTail(tx, db.dialect, deleted);
    return deleted.length;
  });
}

/**
 * SQLite gives a new row the greatest rowid plus one, so deleting the newest lines makes their ids
 * free again: a span that still covered them would also cover the next write's lines, of its own
 * group too (a line read twice). After a delete that took the greatest ids, the spans of the
 * groups whose lines those were end at the greatest id left. PostgreSQL's ids never come back.
 */
async function trimTail(db: Queryable, dialect: Database['dialect'], deleted: readonly Deleted[]): Promise<void> {
  if (dialect !== 'sqlite' || deleted.length === 0) return;
  const top = Number((await db.get<{ id: number | null }>('SELECT MAX(id) AS id FROM log_lines'))?.id ?? 0);
  const groups = [...new Set(deleted.filter((line) => Number(line.id) > top).map((line) => line.group_id))];
  if (groups.length === 0) return;
  const list = groups.map(() => '?').join(', ');
  await db.run(`DELETE FROM log_line_spans WHERE group_id IN (${list}) AND first_id > ?`, [...groups, top]);
  await db.run(`UPDATE log_line_spans SET last_id = ? WHERE group_id IN (${list}) AND last_id > ?`, [
    top,
    ...groups,
    top,
  ]);
}

/** Where a page of groupsOverCap starts: after this group in (last seen, id) order. */
export interface GroupCursor {
  seen: string;
  id: string;
}

/**
 * One page of the project's groups seen since `after` (a time, or where the last page ended)
 * that may hold more than `perGroup` lines, and where the next page starts (none after the last).
 * A page reads at most BATCH groups on the project's time index, whether or not they are over the
 * cap: the first pass after a start looks at the whole retention's groups.
 */
export async function groupsOverCap(
  db: Queryable,
  projectId: string,
  after: GroupCursor,
  perGroup: number,
): Promise<{ ids: string[]; next: GroupCursor | undefined }> {
  const rows = await db.all<{ id: string; seen: string; n: number | string }>(
    `SELECT id, last_seen_at AS seen, occurrences AS n FROM log_groups
      WHERE project_id = ? AND (last_seen_at, id) > (?, ?) ORDER BY last_seen_at, id LIMIT ${BATCH}`,
    [projectId, after.seen, after.id],
  );
  const last = rows.at(-1);
  return {
    ids: rows.filter((row) => Number(row.n) > perGroup + 1).map((row) => row.id),
    next: rows.length === BATCH && last ? { seen: last.seen, id: last.id } : undefined,
  };
}

/** A group's lines through its spans (as store-line-reads.ts reads them), with `conditions` on `s` and `l`. */
const groupLines = (db: Database, select: string, conditions: string) =>
  `SELECT ${select} FROM ${groupLinesFrom(db.dialect)} WHERE s.group_id = ? AND l.group_id = ?${conditions}`;

/** The group's `perGroup`-th newest line, read through its newest spans (groupLinesFloor) if they tell. */
async function capEdge(
  db: Database,
  groupId: string,
  perGroup: number,
): Promise<{ ts: string; id: string | number } | undefined> {
  const low = await groupLinesFloor(db, groupId, perGroup);
  if (low === undefined) return undefined; // its spans hold fewer lines: under the cap
  const order = ` ORDER BY l.ts DESC, l.id DESC LIMIT 1 OFFSET ${perGroup - 1}`;
  const bounded = await db.get<{ ts: string; id: string | number }>(
    groupLines(db, 'l.ts, l.id', ` AND s.max_ts >= ? AND l.ts >= ?${order}`),
    [groupId, groupId, low, low],
  );
  return (
    bounded ??
    (await db.get<{ ts: string; id: string | number }>(groupLines(db, 'l.ts, l.id', order), [groupId, groupId]))
  );
}

/** The group's first line (by time): in the spans that start no later than the earliest span ends, if it is there. */
async function firstLine(db: Database, groupId: string): Promise<string | number | undefined> {
  const order = ' ORDER BY l.ts, l.id LIMIT 1';
  const high = await db.get<{ ts: string | null }>('SELECT MIN(max_ts) AS ts FROM log_line_spans WHERE group_id = ?', [
    groupId,
  ]);
  if (!high?.ts) return undefined;
  const bounded = await db.get<{ id: string | number }>(
    groupLines(db, 'l.id', ` AND s.min_ts <= ? AND l.ts <= ?${order}`),
    [groupId, groupId, high.ts, high.ts],
  );
  return (bounded ?? (await db.get<{ id: string | number }>(groupLines(db, 'l.id', order), [groupId, groupId])))?.id;
}

/**
 * Deletes up to BATCH of a group's lines older than its newest `perGroup`, its first line kept;
 * returns how many. When fewer than BATCH were left, the spans that held only deleted lines go.
 */
export async function capGroupLines(db: Database, groupId: string, perGroup: number): Promise<number> {
  const edge = await capEdge(db, groupId, perGroup);
  if (!edge) return 0;
  const firstId = await firstLine(db, groupId);
  if (firstId === undefined) return 0;
  const first = String(firstId);
  // The delete, its spans and the tail in one transaction, as in expireLines.
  return db.transaction(async (tx) => {
    // `ts <= ?` outside: on PostgreSQL the delete visits no day after the cap's edge.
    const deleted = await tx.all<Deleted>(
      `DELETE FROM log_lines WHERE ts <= ? AND id IN (${groupLines(
        db,
        'l.id',
        ` AND s.min_ts <= ? AND (l.ts, l.id) < (?, CAST(? AS BIGINT)) AND l.id <> CAST(? AS BIGINT) LIMIT ${BATCH}`,
      )}) RETURNING id, group_id, ts`,
      [edge.ts, groupId, groupId, edge.ts, edge.ts, String(edge.id), first],
    );
    if (deleted.length < BATCH)
      for (let n = BATCH; n === BATCH; ) {
        n = (
          await tx.run(
            `DELETE FROM log_line_spans WHERE group_id = ? AND (max_ts, first_id) IN (
            SELECT max_ts, first_id FROM log_line_spans WHERE group_id = ? AND max_ts < ?
              AND NOT (first_id <= CAST(? AS BIGINT) AND last_id >= CAST(? AS BIGINT)) LIMIT ${BATCH})`,
            [groupId, groupId, edge.ts, first, first],
          )
        ).changes;
      }
    await trimTail(tx, db.dialect, deleted);
    return deleted.length;
  });
}

/** The per-minute units of log_volume: a group's counts, and the project's totals (store-lines.ts). */
export const MINUTE_UNITS = ['m', 'M'] as const;

/**
 * Per-minute counts deleted per statement. Each row also leaves log_volume_by_group at its group's
 * place, a page apiece: 1,000 a statement took 26–70 ms on the loop under the soak's load.
 */
export const VOLUME_BATCH = 250;

/**
 * Deletes up to VOLUME_BATCH of the project's per-minute counts of `unit` before `bucket`
 * ('YYYY-MM-DDTHH:MM'); returns how many. One statement for all of them took 0.6 s on the event
 * loop after the 100,000 groups of the bench's seed.
 */
export async function pruneMinuteVolume(
  db: Queryable,
  projectId: string,
  unit: (typeof MINUTE_UNITS)[number],
  bucket: string,
): Promise<number> {
  const { changes } = await db.run(
    `DELETE FROM log_volume WHERE project_id = ? AND unit = ? AND (bucket, group_id) IN (
      SELECT bucket, group_id FROM log_volume WHERE project_id = ? AND unit = ? AND bucket < ?
        ORDER BY bucket, group_id LIMIT ${VOLUME_BATCH})`,
    [projectId, unit, projectId, unit, bucket],
  );
  return changes;
}
