/**
 * The log explorer stays fast with 100,000 groups: every list, count and histogram query reads
 * through an index of migration 202611270100, and the pages (first, filtered, after a cursor) need
 * no sort of the table. Checked with the database's own plan: SQLite's EXPLAIN QUERY PLAN,
 * PostgreSQL's EXPLAIN (after ANALYZE, as autovacuum would have run).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { SqlValue } from '../../../src/db/database.ts';
import {
  logCountQuery,
  logHistogramQuery,
  logPageQuery,
  logTextWindowQuery,
  listLogPage,
  type LogFilter,
} from '../../../src/resources/logs/store.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';

const GROUPS = 100_000;
const DAY = 86_400_000;
const NOW = Date.parse('2026-11-20T00:00:00.000Z');

describe('log explorer query plans with 100,000 groups', { timeout: 900_000 }, () => {
  let server: TestServer;
  let projectId: string;

  // The timeout bounds a hung seed, not its speed: 100,000 rows through every index and trigger
  // have taken minutes on a loaded 2-core machine.
  before(
    async () => {
      server = await startTestServer();
      projectId = (await server.createProject()).projectId;
      const other = (await server.createProject()).projectId;
      // One bulk statement per database: 95% of the groups in the project, the rest in another,
      // levels, categories and sources spread out, last seen over 30 days.
      const start = new Date(NOW - 30 * DAY).toISOString();
      if (server.db.dialect === 'sqlite') {
        await server.db.run(
          `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${GROUPS})
         INSERT INTO log_groups (id, project_id, environment, fingerprint, fingerprint_key, level, category, source,
           message, data, status, occurrences, first_seen_at, last_seen_at)
         SELECT printf('log_%08d', i), CASE WHEN i % 20 = 0 THEN ? ELSE ? END, CASE WHEN i % 10 = 0 THEN 'test' ELSE 'live' END,
           'fp' || i, i, CASE i % 5 WHEN 0 THEN 'error' WHEN 1 THEN 'warn' WHEN 2 THEN 'info' WHEN 3 THEN 'debug' ELSE 'trace' END,
           'category-' || (i % 20), 'source-' || (i % 10), 'Message number ' || i, '{"i":' || i || '}',
           CASE WHEN i % 7 = 0 THEN 'resolved' ELSE 'open' END, 1 + i % 3,
           strftime('%Y-%m-%dT%H:%M:%fZ', ?, '+' || (i * 25) || ' seconds'),
           strftime('%Y-%m-%dT%H:%M:%fZ', ?, '+' || (i * 25) || ' seconds')
         FROM n`,
          [other, projectId, start, start],
        );
      } else {
        await server.db.run(
          `INSERT INTO log_groups (id, project_id, environment, fingerprint, fingerprint_key, level, category, source,
           message, data, status, occurrences, first_seen_at, last_seen_at)
         SELECT 'log_' || lpad(i::text, 8, '0'), CASE WHEN i % 20 = 0 THEN ? ELSE ? END,
           CASE WHEN i % 10 = 0 THEN 'test' ELSE 'live' END, 'fp' || i, i,
           (ARRAY['error', 'warn', 'info', 'debug', 'trace'])[i % 5 + 1], 'category-' || (i % 20),
           'source-' || (i % 10), 'Message number ' || i, '{"i":' || i || '}',
           CASE WHEN i % 7 = 0 THEN 'resolved' ELSE 'open' END, 1 + i % 3,
           to_char((?::timestamptz + i * interval '25 seconds') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
           to_char((?::timestamptz + i * interval '25 seconds') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
         FROM generate_series(1, ${GROUPS}) AS i`,
          [other, projectId, start, start],
        );
        await server.db.run('ANALYZE log_groups');
      }
      const count = await server.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM log_groups');
      assert.equal(Number(count?.n), GROUPS);
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

  /** Reads log_groups through one of its indexes, never the whole table. */
  function assertIndexed(text: string, name: string): void {
    if (server.db.dialect === 'sqlite') {
      assert.match(text, /log_groups USING (COVERING )?INDEX log_groups_/, `${name}: no index\n${text}`);
      assert.doesNotMatch(text, /SCAN log_groups(?! USING)/, `${name}: full scan\n${text}`);
    } else {
      assert.match(text, /Index (Only )?Scan.* (using|on) log_groups_\w+/, `${name}: no index\n${text}`);
      assert.doesNotMatch(text, /Seq Scan on log_groups/, `${name}: full scan\n${text}`);
    }
  }

  /** And returns its rows in index order: no sort of what it read. */
  function assertNoSort(text: string, name: string): void {
    if (server.db.dialect === 'sqlite')
      assert.doesNotMatch(text, /TEMP B-TREE FOR ORDER BY/, `${name}: sorts\n${text}`);
    else assert.doesNotMatch(text, /^\s*(->\s*)?Sort\b/m, `${name}: sorts\n${text}`);
  }

  const cursor = { lastSeenAt: new Date(NOW - 10 * DAY).toISOString(), id: 'log_00050000' };
  const lists: [string, LogFilter, { cursor: typeof cursor } | { offset: number }][] = [
    ['first page', {}, { offset: 0 }],
    ['page after a cursor', {}, { cursor }],
    ['one level', { levels: ['error'] }, { offset: 0 }],
    ['one level, after a cursor', { levels: ['warn'] }, { cursor }],
    ['category', { category: 'category-3' }, { offset: 0 }],
    ['source', { source: 'source-4' }, { offset: 0 }],
    [
      'time range',
      { since: new Date(NOW - 3 * DAY).toISOString(), until: new Date(NOW - DAY).toISOString() },
      { offset: 0 },
    ],
    ['environment and status', { environment: 'live', status: 'open' }, { offset: 0 }],
  ];

  for (const [name, filter, page] of lists) {
    it(`lists in index order: ${name}`, async () => {
      const text = await plan(logPageQuery(server.db.dialect, projectId, filter, 51, page));
      assertIndexed(text, name);
      assertNoSort(text, name);
    });
  }

  it('lists several levels through an index', async () => {
    const text = await plan(
      logPageQuery(server.db.dialect, projectId, { levels: ['error', 'warn'] }, 51, { offset: 0 }),
    );
    assertIndexed(text, 'several levels');
  });

  it('searches text window by window along an index (at most 2,000 rows sorted, never the table)', async () => {
    for (const [name, filter, at] of [
      ['text', { q: 'number 4242' }, undefined],
      ['text after a cursor', { q: 'number 4' }, cursor],
      ['text and a level', { q: 'number 4', levels: ['error'] }, cursor],
    ] as [string, LogFilter & { q: string }, typeof cursor | undefined][]) {
      const text = await plan(logTextWindowQuery(server.db.dialect, projectId, filter, at, 51));
      assertIndexed(text, name);
      if (server.db.dialect === 'sqlite') assert.doesNotMatch(text, /SCAN log_groups(?! USING)/);
    }
  });

  it('finds rare text across every window, newest first', async () => {
    const page = await listLogPage<{ message: string; id: string; last_seen_at: string }>(
      server.db,
      projectId,
      { q: 'number 4242' },
      50,
      { offset: 0 },
    );
    // 4242 and 42421–42429 (42420 belongs to the other project), across about 48 windows.
    assert.deepEqual(
      page.rows.map((row) => row.message),
      [42429, 42428, 42427, 42426, 42425, 42424, 42423, 42422, 42421, 4242].map((i) => `Message number ${i}`),
    );
    assert.equal(page.hasMore, false);
  });

  it('counts through an index or stops at the cap', async () => {
    for (const filter of [{}, { levels: ['error'] }, { status: 'resolved' as const }, { category: 'category-1' }]) {
      const name = `count ${JSON.stringify(filter)}`;
      const text = await plan(logCountQuery(server.db.dialect, projectId, filter));
      if (/Seq Scan on log_groups/.test(text)) {
        // PostgreSQL reads the table in its own order when most rows match: the Limit stops it
        // at the cap, so it reads 1,001 rows, not every one.
        assert.match(text, /Limit .*rows=1001[\s\S]*->\s+Seq Scan on log_groups/, `${name}: uncapped scan\n${text}`);
      } else assertIndexed(text, name);
    }
  });

  it('reads the histogram over an index range', async () => {
    const range = { since: new Date(NOW - DAY).toISOString(), until: new Date(NOW).toISOString() };
    assertIndexed(await plan(logHistogramQuery(server.db.dialect, projectId, range, 'hour')), 'histogram');
    assertIndexed(
      await plan(logHistogramQuery(server.db.dialect, projectId, { ...range, levels: ['error', 'warn'] }, 'hour')),
      'histogram by level',
    );
  });
});
