/**
 * Log lines stay fast at scale (issue 32): with 100,000 lines in 1,000 groups, the explorer's
 * pages read log_lines through its time index in order, with no sort of the table; a group's page
 * reads its spans (log_line_spans) and their lines by id, never the project's lines; a search
 * reads one bounded window; on PostgreSQL an equality field filter finds older lines through the
 * GIN index. Checked with the database's own plan. On PostgreSQL both tables are partitioned by
 * day (migration 202701290100_log_line_partitions): an index of the table is one per partition,
 * named after it (`log_lines_p20261120_project_id_ts_id_idx` for `log_lines_by_time`).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { SqlValue } from '../../../src/db/database.ts';
import { parseLogSearch } from '../../../src/resources/logs/field-filter.ts';
import {
  fieldIndexQueries,
  groupLinesFloor,
  linePageQuery,
  SEARCH_BUDGET,
  searchWindowQuery,
  type LineFilter,
} from '../../../src/resources/logs/store-line-reads.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';

const LINES = 100_000;
/** The spans store-lines.ts would have written: a group's lines come in runs of 10 consecutive ids. */
const SPANS = `INSERT INTO log_line_spans (group_id, max_ts, first_id, last_id, min_ts, n, project_id)
  SELECT group_id, MAX(ts), MIN(id), MAX(id), MIN(ts), COUNT(*), MIN(project_id)
  FROM (SELECT group_id, id, ts, project_id, id - ROW_NUMBER() OVER (PARTITION BY group_id ORDER BY id) AS run
    FROM log_lines) lines
  GROUP BY group_id, run`;
const START = '2026-11-20T00:00:00.000Z';

describe('log line query plans with 100,000 lines', { timeout: 900_000 }, () => {
  let server: TestServer;
  let projectId: string;

  before(
    async () => {
      server = await startTestServer();
      projectId = (await server.createProject()).projectId;
      const db = server.db;
      if (db.dialect === 'sqlite') {
        await db.run(
          `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 999)
           INSERT INTO log_groups (id, project_id, environment, fingerprint, fingerprint_key, level, message,
             occurrences, first_seen_at, last_seen_at)
           SELECT 'g' || i, ?, 'live', 'fp' || i, i, 'info', 'Step ' || i, 100, ?, ? FROM n`,
          [projectId, START, START],
        );
        await db.run(
          `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${LINES})
           INSERT INTO log_lines (group_id, project_id, environment, ts, level, source, data)
           SELECT 'g' || ((i / 10) % 1000), ?, 'live', strftime('%Y-%m-%dT%H:%M:%fZ', ?, '+' || (i * 5) || ' seconds'),
             CASE i % 5 WHEN 0 THEN 'error' ELSE 'info' END, 'source-' || (i % 10),
             '{"orderId":' || (i % 10000) || ',"path":"/api/' || i || '"}'
           FROM n`,
          [projectId, START],
        );
        await db.run(SPANS);
        await db.run('ANALYZE');
      } else {
        await db.run(
          `INSERT INTO log_groups (id, project_id, environment, fingerprint, fingerprint_key, level, message,
             occurrences, first_seen_at, last_seen_at)
           SELECT 'g' || i, ?, 'live', 'fp' || i, i, 'info', 'Step ' || i, 100, ?, ? FROM generate_series(0, 999) i`,
          [projectId, START, START],
        );
        await db.run(
          `INSERT INTO log_lines (group_id, project_id, environment, ts, level, source, data)
           SELECT 'g' || ((i / 10) % 1000), ?, 'live',
             to_char((?::timestamptz + i * interval '5 seconds') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
             CASE WHEN i % 5 = 0 THEN 'error' ELSE 'info' END, 'source-' || (i % 10),
             jsonb_build_object('orderId', i % 10000, 'path', '/api/' || i)
           FROM generate_series(1, ${LINES}) i`,
          [projectId, START],
        );
        // A bulk insert leaves the GIN index's entries in its pending list (fastupdate) until
        // autovacuum merges them; until then the planner prices every GIN lookup as a scan of that
        // list (cost about 4,000 here, beside a parallel seq scan's 4,800), so whether it picked the
        // index depended on whether autovacuum had run yet (CI once chose the seq scan). The plans
        // asserted are those of a table in its steady state: the list merged, as autovacuum does.
        // log_lines is partitioned: each partition has its own GIN index, whose list is cleaned.
        await db.all(
          `SELECT gin_clean_pending_list(i.inhrelid::regclass) FROM pg_inherits i
            WHERE i.inhparent = 'log_lines_data'::regclass`,
        );
        await db.run(SPANS);
        await db.run('ANALYZE log_lines');
        await db.run('ANALYZE log_line_spans');
        await db.run('ANALYZE log_groups');
      }
    },
    { timeout: 600_000 },
  );

  after(async () => {
    await server?.close();
  });

  async function plan(query: { sql: string; params: SqlValue[] }): Promise<string> {
    if (server.db.dialect === 'sqlite') {
      const rows = await server.db.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${query.sql}`, query.params);
      return rows.map((row) => row.detail).join('\n');
    }
    const rows = await server.db.all<{ 'QUERY PLAN': string }>(`EXPLAIN ${query.sql}`, query.params);
    return rows.map((row) => row['QUERY PLAN']).join('\n');
  }

  /** An index of a partitioned table as PostgreSQL's plan names it: the parent's, or a partition's own. */
  const PARTITION_INDEX: Record<string, string> = {
    log_lines_by_time: '(log_lines_by_time|log_lines_\\w+_project_id_ts_id_idx)',
    log_lines_pkey: 'log_lines_(\\w+_)?pkey',
    log_line_spans_pkey: 'log_line_spans_(\\w+_)?pkey',
    log_lines_data: '(log_lines_data|log_lines_\\w+_data_idx)',
  };
  const pgIndex = (index: string) => PARTITION_INDEX[index] ?? index;
  /**
   * The plan without its scans of empty partitions (the days around the lines', made ahead and
   * back by the keeper: PostgreSQL reads an empty table, cost 0, whichever way), for the checks
   * that no table with rows is read whole.
   */
  const withRows = (text: string) =>
    text
      .split('\n')
      .filter((line) => !/Seq Scan on log_line\w+ \w+\s+\(cost=0\.00\.\.0\.00 /.test(line))
      .join('\n');

  function assertInOrder(text: string, index: string, name: string): void {
    if (server.db.dialect === 'sqlite') {
      assert.match(text, new RegExp(`(SEARCH|SCAN) l USING (COVERING )?INDEX ${index}`), `${name}\n${text}`);
      assert.doesNotMatch(text, /TEMP B-TREE FOR ORDER BY/, `${name}: sorts\n${text}`);
    } else {
      assert.match(
        text,
        new RegExp(`Index (Only )?Scan( Backward)? using ${pgIndex(index)} on log_lines`),
        `${name}\n${text}`,
      );
      // A Sort node (a Merge Append of the partitions names its "Sort Key" and sorts nothing).
      assert.doesNotMatch(text, /^\s*(->\s*)?Sort\s+\(/m, `${name}: sorts\n${text}`);
      assert.doesNotMatch(withRows(text), /Seq Scan on log_lines/, `${name}: full scan\n${text}`);
    }
  }

  const range = { from: START, to: '2026-11-27T00:00:00.000Z' };
  const cursor = { ts: '2026-11-23T00:00:00.000Z', id: '50000' };
  const pages: [string, LineFilter, typeof cursor | undefined][] = [
    ['first page', {}, undefined],
    ['first page in a time range', range, undefined],
    ['after a cursor', range, cursor],
    ['one level', { ...range, levels: ['error'] }, undefined],
    ['source', { ...range, source: 'source-3' }, undefined],
  ];
  for (const [name, filter, after] of pages)
    it(`${name}: the time index in order, no sort`, async () => {
      assertInOrder(
        await plan(linePageQuery(server.db.dialect, projectId, filter, 101, after)),
        'log_lines_by_time',
        name,
      );
    });

  /** The group's spans by their key, then each span's lines by id: never the project's lines. */
  function assertThroughSpans(text: string, name: string): void {
    if (server.db.dialect === 'sqlite') {
      assert.match(text, /SEARCH s USING PRIMARY KEY \(group_id=\?/, `${name}\n${text}`);
      assert.match(text, /SEARCH l USING INTEGER PRIMARY KEY \(rowid>\? AND rowid<\?\)/, `${name}\n${text}`);
      assert.doesNotMatch(text, /log_lines_by_time|SCAN l\b/, `${name}: the project's lines\n${text}`);
    } else {
      const spansKey = pgIndex('log_line_spans_pkey');
      assert.match(
        text,
        new RegExp(`(Index|Bitmap Index) Scan( Backward)? (using|on) ${spansKey}`),
        `${name}\n${text}`,
      );
      assert.match(
        text,
        new RegExp(`Index Scan( Backward)? using ${pgIndex('log_lines_pkey')} on log_lines`),
        `${name}\n${text}`,
      );
      assert.doesNotMatch(
        withRows(text),
        /Seq Scan on log_lines|log_lines_by_time|project_id_ts_id_idx/,
        `${name}: the project's lines\n${text}`,
      );
    }
  }

  const groupPages: [string, LineFilter, typeof cursor | undefined, string | undefined][] = [
    ['a group', { groupId: 'g7' }, undefined, undefined],
    ['a group after a cursor', { groupId: 'g7' }, cursor, undefined],
    ['a group in a time range', { ...range, groupId: 'g7' }, undefined, undefined],
    ['a group bounded by its spans', { groupId: 'g7' }, undefined, '2026-11-25T00:00:00.000Z'],
  ];
  for (const [name, filter, after, low] of groupPages)
    it(`${name}: its spans, then their lines by id`, async () => {
      assertThroughSpans(await plan(linePageQuery(server.db.dialect, projectId, filter, 101, after, low)), name);
    });

  it("a group's page bound: its spans alone, newest first", async () => {
    const rows = await server.db.all<{ n: number | string }>('SELECT n FROM log_line_spans WHERE group_id = ?', ['g7']);
    assert.equal(rows.length, 10, 'ten runs of ten lines');
    const low = await groupLinesFloor(server.db, 'g7', 25);
    const spans = await server.db.all<{ min_ts: string }>(
      'SELECT min_ts FROM log_line_spans WHERE group_id = ? ORDER BY max_ts DESC LIMIT 3',
      ['g7'],
    );
    assert.equal(low, spans[2]!.min_ts, 'three spans of ten hold the newest 25');
    assert.equal(await groupLinesFloor(server.db, 'g7', 101), undefined, 'fewer lines than asked');
  });

  it('a search reads one bounded window of the time index', async () => {
    const { fields, text } = parseLogSearch('step data.path = /api/1*');
    const query = searchWindowQuery(server.db.dialect, projectId, { ...range, fields, q: text }, 101, undefined);
    assert.match(query.sql, new RegExp(`LIMIT ${SEARCH_BUDGET}\\) l`));
    const text_ = await plan(query);
    if (server.db.dialect === 'sqlite')
      assert.match(text_, /(SEARCH|SCAN) l USING (COVERING )?INDEX log_lines_by_time/);
    else
      assert.match(
        text_,
        new RegExp(`Index (Only )?Scan( Backward)? using ${pgIndex('log_lines_by_time')} on log_lines`),
      );
  });

  it('PostgreSQL: an equality field filter finds older lines through the GIN index', async (t) => {
    if (server.db.dialect !== 'postgres') return t.skip('PostgreSQL only');
    const { fields } = parseLogSearch('data.orderId = 42');
    const { rest } = fieldIndexQueries(projectId, { ...range, fields }, 101, undefined);
    const text = await plan(rest(cursor));
    assert.match(text, new RegExp(`Bitmap Index Scan on ${pgIndex('log_lines_data')}`), text);
    assert.doesNotMatch(withRows(text), /Seq Scan on log_lines/, text);
  });

  it('PostgreSQL: the GIN hits are planned with their values every time, never prepared', async (t) => {
    if (server.db.dialect !== 'postgres') return t.skip('PostgreSQL only');
    const { fields } = parseLogSearch('data.orderId = 42');
    const { window, rest } = fieldIndexQueries(projectId, { ...range, fields }, 101, undefined);
    const hits = rest(cursor);
    // One connection (a transaction), as prepared statements are each connection's own.
    const kept = await server.db.transaction(async (tx) => {
      // Past the five runs after which a prepared statement may take a generic plan.
      for (let run = 0; run < 7; run++) {
        await tx.all(hits.sql, hits.params);
        await tx.all(window.sql, window.params);
      }
      return tx.all<{ statement: string }>('SELECT statement FROM pg_prepared_statements WHERE statement LIKE $1', [
        '%log_lines%',
      ]);
    });
    assert.ok(
      kept.some((row) => row.statement.includes('LIMIT 5000')),
      'the window is prepared (the contrast)',
    );
    // (EXPLAIN of it, by the test above, may be.)
    assert.ok(
      !kept.some((row) => row.statement.includes('WITH hits') && !row.statement.startsWith('EXPLAIN')),
      'the hits query was prepared',
    );
  });
});
