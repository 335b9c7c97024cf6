/**
 * Millions of log groups on PostgreSQL without writing each through the store (issue 37's soak at
 * 3,000,000 groups): the store's batched upserts seed about 1,700 groups a second there, so three
 * million would take half an hour. Instead the first `base` groups go through the store as usual
 * (seed.ts), and this copies them set-wise, `copies` times, with every row a group owns: its
 * lines, their spans, its volume per hour and minute and its attribution. A copy keeps the
 * original's times, level, category, source and message; its id, fingerprint and fingerprint key
 * are new (the key computed in SQL as the store's own migration does), its lines' ids are shifted
 * past the originals', and the project's level totals in `log_volume` are multiplied to match.
 * So the explorer's lists, text search and histogram read what 3,000,000 groups written one by
 * one would give them, at the density of `copies + 1` groups per original's moment.
 *
 * SQLite seeds its millions through the store (86 s for 3,000,000), so this is PostgreSQL's only.
 */
import type { Database } from '../../server/src/db/database.ts';
import { POSTGRES_GROUP_KEY_SQL } from '../../server/src/resources/logs/group-key.ts';

const GROUP_COLUMNS = `project_id, environment, level, category, source, message, data, user_id, app_version, status,
  occurrences, first_seen_at, last_seen_at`;
const LINE_COLUMNS =
  'project_id, environment, ts, level, severity, source, app_version, user_id, data, trace_id, span_id';

export async function copyLogGroups(db: Database, projectId: string, copies: number): Promise<void> {
  if (db.dialect !== 'postgres') throw new Error('copyLogGroups is for PostgreSQL (SQLite seeds through the store)');
  const newest = await db.get<{ max: string | number | null }>('SELECT MAX(id) AS max FROM log_lines');
  // Each copy's line ids sit in their own range above every original's.
  const stride = Number(newest?.max ?? 0) + 1;
  for (let copy = 1; copy <= copies; copy++) {
    const suffix = `~${copy}`;
    await db.transaction(async (tx) => {
      await tx.run(
        `INSERT INTO log_groups (id, fingerprint, fingerprint_key, ${GROUP_COLUMNS})
         SELECT id || ?, fingerprint || ?, ${POSTGRES_GROUP_KEY_SQL.replace('fingerprint,', 'fingerprint || ?::text,')},
           ${GROUP_COLUMNS}
         FROM log_groups WHERE project_id = ? AND id NOT LIKE '%~%'
         ON CONFLICT DO NOTHING`,
        [suffix, suffix, suffix, projectId],
      );
      await tx.run(
        `INSERT INTO log_lines (id, group_id, ${LINE_COLUMNS})
         SELECT id + ?, group_id || ?, ${LINE_COLUMNS} FROM log_lines
         WHERE project_id = ? AND id < ?`,
        [copy * stride, suffix, projectId, stride],
      );
      await tx.run(
        `INSERT INTO log_line_spans (group_id, max_ts, first_id, last_id, min_ts, n, project_id)
         SELECT group_id || ?, max_ts, first_id + ?, last_id + ?, min_ts, n, project_id FROM log_line_spans
         WHERE project_id = ? AND first_id < ?`,
        [suffix, copy * stride, copy * stride, projectId, stride],
      );
      await tx.run(
        `INSERT INTO log_volume (project_id, unit, bucket, group_id, environment, level, n)
         SELECT project_id, unit, bucket, group_id || ?, environment, level, n FROM log_volume
         WHERE project_id = ? AND group_id NOT LIKE '*%' AND group_id NOT LIKE '%~%'`,
        [suffix, projectId],
      );
      await tx.run(
        `INSERT INTO log_group_attributes (group_id, kind, value, n, last_seen_at)
         SELECT a.group_id || ?, a.kind, a.value, a.n, a.last_seen_at FROM log_group_attributes a
         JOIN log_groups g ON g.id = a.group_id WHERE g.project_id = ? AND a.group_id NOT LIKE '%~%'`,
        [suffix, projectId],
      );
    });
  }
  // The project's totals per level ('*<environment>*<level>' rows) count every copy's lines too.
  await db.run(`UPDATE log_volume SET n = n * ? WHERE project_id = ? AND group_id LIKE '*%'`, [copies + 1, projectId]);
  const top = await db.get<{ max: string | number | null }>('SELECT MAX(id) AS max FROM log_lines');
  await db.run(`SELECT setval('log_lines_id_seq', ?)`, [Number(top?.max ?? 0) + 1]);
  // Statistics: the bench's settle() runs VACUUM (ANALYZE) on the whole database after the seed.
}
