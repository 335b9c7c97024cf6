/**
 * Log lines stay fast at scale (issue 32): with 100,000 lines in 1,000 groups, the explorer's
 * pages read log_lines through its time index (or a group's through its group index) in order,
 * with no sort of the table; a search reads one bounded window; on PostgreSQL an equality field
 * filter finds older lines through the GIN index. Checked with the database's own plan.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { SqlValue } from '../../../src/db/database.ts';
import { parseLogSearch } from '../../../src/resources/logs/field-filter.ts';
import {
  fieldIndexQueries,
  linePageQuery,
  searchWindowQuery,
  type LineFilter,
} from '../../../src/resources/logs/store-line-reads.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';

const LINES = 100_000;
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
           SELECT 'g' || (i % 1000), ?, 'live', strftime('%Y-%m-%dT%H:%M:%fZ', ?, '+' || (i * 5) || ' seconds'),
             CASE i % 5 WHEN 0 THEN 'error' ELSE 'info' END, 'source-' || (i % 10),
             '{"orderId":' || (i % 10000) || ',"path":"/api/' || i || '"}'
           FROM n`,
          [projectId, START],
        );
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
           SELECT 'g' || (i % 1000), ?, 'live',
             to_char((?::timestamptz + i * interval '5 seconds') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
             CASE WHEN i % 5 = 0 THEN 'error' ELSE 'info' END, 'source-' || (i % 10),
             jsonb_build_object('orderId', i % 10000, 'path', '/api/' || i)
           FROM generate_series(1, ${LINES}) i`,
          [projectId, START],
        );
        await db.run('ANALYZE log_lines');
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

  function assertInOrder(text: string, index: string, name: string): void {
    if (server.db.dialect === 'sqlite') {
      assert.match(text, new RegExp(`(SEARCH|SCAN) l USING (COVERING )?INDEX ${index}`), `${name}\n${text}`);
      assert.doesNotMatch(text, /TEMP B-TREE FOR ORDER BY/, `${name}: sorts\n${text}`);
    } else {
      assert.match(text, new RegExp(`Index (Only )?Scan( Backward)? using ${index} on log_lines`), `${name}\n${text}`);
      assert.doesNotMatch(text, /^\s*(->\s*)?Sort\b/m, `${name}: sorts\n${text}`);
      assert.doesNotMatch(text, /Seq Scan on log_lines/, `${name}: full scan\n${text}`);
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

  it("a group's lines: the group index", async () => {
    const text = await plan(linePageQuery(server.db.dialect, projectId, { groupId: 'g7' }, 101, undefined));
    // In order on SQLite; PostgreSQL may take a small group's 100 lines by bitmap and sort them.
    if (server.db.dialect === 'sqlite') assertInOrder(text, 'log_lines_by_group', 'group');
    else {
      assert.match(text, /(Index|Bitmap Index) Scan( Backward)? (using|on) log_lines_by_group/, text);
      assert.doesNotMatch(text, /Seq Scan on log_lines/, text);
    }
  });

  it('a search reads one bounded window of the time index', async () => {
    const { fields, text } = parseLogSearch('step data.path = /api/1*');
    const query = searchWindowQuery(server.db.dialect, projectId, { ...range, fields, q: text }, 101, undefined);
    assert.match(query.sql, /LIMIT 50000\) l/);
    const text_ = await plan(query);
    if (server.db.dialect === 'sqlite')
      assert.match(text_, /(SEARCH|SCAN) l USING (COVERING )?INDEX log_lines_by_time/);
    else assert.match(text_, /Index (Only )?Scan( Backward)? using log_lines_by_time on log_lines/);
  });

  it('PostgreSQL: an equality field filter finds older lines through the GIN index', async (t) => {
    if (server.db.dialect !== 'postgres') return t.skip('PostgreSQL only');
    const { fields } = parseLogSearch('data.orderId = 42');
    const { rest } = fieldIndexQueries(projectId, { ...range, fields }, 101, undefined);
    const text = await plan(rest(cursor));
    assert.match(text, /Bitmap Index Scan on log_lines_data/, text);
    assert.doesNotMatch(text, /Seq Scan on log_lines/, text);
  });
});
