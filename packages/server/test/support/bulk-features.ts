/**
 * Many features in one statement, for tests and measurements of lists at scale (a row at a time
 * through the API would take minutes). Item i (1-based) of `count`: every 50th goes to
 * `otherProjectId` when given, every 10th to the test environment, every 17th internal, every
 * 23rd held; status cycles through `new` and the seven roadmap statuses (i % 8), every 3rd is a
 * bug; votes spread over 0..999 with many ties, comments 0..12; created one a minute from `start`.
 */
import type { Database } from '../../src/db/database.ts';

export const BULK_STATUSES = ['new', 'open', 'planned', 'in-progress', 'in-review', 'accepted', 'done', 'declined'];

export async function insertBulkFeatures(
  db: Database,
  options: { count: number; projectId: string; otherProjectId?: string; idPrefix?: string; start?: string },
): Promise<void> {
  const { count, projectId } = options;
  const other = options.otherProjectId ?? projectId;
  const prefix = options.idPrefix ?? 'feat_';
  const start = options.start ?? '2026-01-01T00:00:00.000Z';
  const statusCase = `CASE i % 8 ${BULK_STATUSES.map((status, n) => `WHEN ${n} THEN '${status}'`).join(' ')} END`;
  const columns = `id, project_id, environment, title, description, type, status, internal, held,
    vote_count, comment_count, created_at, updated_at`;
  const values = (id: string, created: string, updated: string) => `${id}, CASE WHEN i % 50 = 0 THEN ? ELSE ? END,
    CASE WHEN i % 10 = 0 THEN 'test' ELSE 'live' END, 'Idea number ' || i, 'The description of idea ' || i,
    CASE WHEN i % 3 = 0 THEN 'bug' ELSE 'feature' END, ${statusCase},
    CASE WHEN i % 17 = 0 THEN 1 ELSE 0 END, CASE WHEN i % 23 = 0 THEN 1 ELSE 0 END,
    (i * 7919) % 1000, i % 13, ${created}, ${updated}`;
  if (db.dialect === 'sqlite') {
    const stamp = (minutes: string) => `strftime('%Y-%m-%dT%H:%M:%fZ', ?, '+' || ${minutes} || ' minutes')`;
    await db.run(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${count})
       INSERT INTO features (${columns})
       SELECT ${values(`? || printf('%08d', i)`, stamp('i'), stamp('(i * 3 % 100000)'))} FROM n`,
      [prefix, other, projectId, start, start],
    );
    await db.run('ANALYZE');
  } else {
    const stamp = (minutes: string) =>
      `to_char((?::timestamptz + ${minutes} * interval '1 minute') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
    // The row triggers (kept counts, the typo search's words) cost most of a 100,000-row insert
    // (about 80 s on a 2-core machine): they are off for this transaction, and the same rows they
    // would write are written set-wise after it (the list tests compare kept counts with counts).
    await db.transaction(async (tx) => {
      await tx.run("SET LOCAL session_replication_role = 'replica'");
      await tx.run(
        `WITH inserted AS (
           INSERT INTO features (${columns})
           SELECT ${values(`? || lpad(i::text, 8, '0')`, stamp('i'), stamp('(i * 3 % 100000)'))}
           FROM generate_series(1, ${count}) AS i
           RETURNING project_id, environment, status, type, internal, held, title, description
         ), counted AS (
           INSERT INTO feature_counts (project_id, environment, status, type, internal, held, n)
           SELECT project_id, environment, status, type, internal, held, COUNT(*) FROM inserted
           GROUP BY project_id, environment, status, type, internal, held
           ON CONFLICT (project_id, environment, status, type, internal, held) DO UPDATE SET n = feature_counts.n + EXCLUDED.n
         )
         INSERT INTO feature_words (project_id, word)
         SELECT DISTINCT project_id, unnest(tsvector_to_array(to_tsvector('simple', title || ' ' || description)))
         FROM inserted
         ON CONFLICT DO NOTHING`,
        [prefix, other, projectId, start, start],
      );
    });
    await db.run('ANALYZE features');
  }
}
