/**
 * Upgrading a database that already holds log groups, log lines and ideas to search: each suite
 * stops the migrations before one of them, writes what a server of that time wrote, applies the
 * rest and checks through HTTP that the data still behaves (test/support/upgrade-suite.ts).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ALL_PUBLIC_SCOPES, createApiKey, createProject } from '../../src/resources/projects/index.ts';
import { groupKey } from '../../src/resources/logs/group-key.ts';
import { listLinePage } from '../../src/resources/logs/store-line-reads.ts';
import { testDbKind } from '../support/database.ts';
import { Api } from '../support/api.ts';
import { upgradeSuite } from '../support/upgrade-suite.ts';

describe('upgrade: SQLite keeps log keys apart from the rows (202612030100)', {
  skip: testDbKind() !== 'sqlite' && 'the migration is SQLite’s alone',
}, () => {
  let key: string;
  const api = () => new Api(upgraded.server.baseUrl, key);
  const lines = Array.from({ length: 3 }, (_, i) => ({
    level: 'warn' as const,
    message: `Before ${i}`,
    fingerprint: `before-${i}`,
  }));

  const upgraded = upgradeSuite('202612030100_log_key_index', async (db) => {
    await createProject(db, { id: 'keyed', name: 'Keyed', slug: 'keyed', monthlyQuota: null });
    key = (await createApiKey(db, 'keyed', 'live', ALL_PUBLIC_SCOPES)).key;
    // Groups as the earlier server wrote them: one row each, found through the unique key index.
    const at = new Date(Date.now() - 60_000).toISOString();
    for (const [i, line] of lines.entries())
      await db.run(
        `INSERT INTO log_groups (id, project_id, environment, fingerprint, fingerprint_key, level, message, occurrences,
           first_seen_at, last_seen_at) VALUES (?, 'keyed', 'live', ?, ?, 'warn', ?, 4, ?, ?)`,
        [`log_before_${i}`, line.fingerprint, groupKey('keyed', 'live', line.fingerprint), line.message, at, at],
      );
  });

  it('moves every key to log_group_keys, pointing at its row, and drops the unique index', async () => {
    const db = upgraded.server.db;
    const keys = await db.all<{ id: string; key: number }>(
      `SELECT g.id, k.key FROM log_group_keys k JOIN log_groups g ON g.rowid = k.group_rowid AND g.fingerprint_key = k.key
       WHERE g.project_id = 'keyed' ORDER BY g.id`,
    );
    assert.deepEqual(
      keys.map((row) => [row.id, Number(row.key)]),
      lines.map((line, i) => [`log_before_${i}`, groupKey('keyed', 'live', line.fingerprint)]),
    );
    const swept = await db.get<{ through: number; top: number }>(
      'SELECT merged_through AS through, (SELECT max(rowid) FROM log_groups) AS top FROM log_group_key_sweeps',
    );
    assert.equal(Number(swept!.through), Number(swept!.top));
    assert.equal(await db.get("SELECT 1 AS found FROM sqlite_master WHERE name = 'log_groups_key'"), undefined);
  });

  it('counts the groups from before on their rows, and appends new ones', async () => {
    const newcomer = { level: 'info' as const, message: 'After', fingerprint: 'after-0' };
    assert.equal((await api().post('/logs', { logs: [...lines, lines[0]!, newcomer] })).status, 200);
    const rows = await upgraded.server.db.all<{ fingerprint: string; occurrences: number }>(
      "SELECT fingerprint, occurrences FROM log_groups WHERE project_id = 'keyed' ORDER BY fingerprint",
    );
    assert.deepEqual(
      rows.map((row) => [row.fingerprint, Number(row.occurrences)]),
      [
        ['after-0', 1],
        ['before-0', 6],
        ['before-1', 5],
        ['before-2', 5],
      ],
    );
  });
});

describe('upgrade: PostgreSQL searches a stored per-project document (202701010100)', () => {
  let key: string;
  const api = () => new Api(upgraded.server.baseUrl, key);

  const upgraded = upgradeSuite('202701010100_search_document', async (db) => {
    for (const id of ['searched', 'elsewhere']) {
      await createProject(db, { id, name: id, slug: id, monthlyQuota: null });
      // Ideas as the earlier server wrote them: no search document yet (PostgreSQL computes it
      // for the rows already there when the column is added).
      await db.run(
        `INSERT INTO features (id, project_id, environment, title, description, type, status, created_at, updated_at)
         VALUES (?, ?, 'live', 'Checkout in one step', 'Pay without leaving the cart.', 'feature', 'open', ?, ?)`,
        [`feat_${id}`, id, '2026-11-01T00:00:00.000Z', '2026-11-01T00:00:00.000Z'],
      );
    }
    key = (await createApiKey(db, 'searched', 'live', ALL_PUBLIC_SCOPES)).key;
  });

  it('finds the ideas from before the upgrade, typos included, and only the project’s own', async () => {
    for (const title of ['checkout', 'chekout flow']) {
      const found = await api().get('/suggestions', { query: { title } });
      assert.equal(found.status, 200, found.text);
      assert.deepEqual(
        (found.body.ideas as { id: string }[]).map((idea) => idea.id),
        ['feat_searched'],
        title,
      );
    }
  });

  it('finds an idea written after it the same way', async () => {
    const created = await api().post('/features', {
      title: 'Checkout with a saved card',
      description: 'Pay faster with a card kept on file.',
    });
    assert.equal(created.status, 201, created.text);
    const found = await api().get('/suggestions', { query: { title: 'saved checkout' } });
    assert.equal(found.status, 200, found.text);
    // Both words in its title: it ranks above the idea from before, which has one of them.
    assert.deepEqual(
      (found.body.ideas as { id: string }[]).map((idea) => idea.id),
      [created.body.id, 'feat_searched'],
    );
  });
});

describe('upgrade: log lines found through spans, not a per-line group index (202701120100)', () => {
  const at = (second: number) => new Date(Date.parse('2026-11-20T00:00:00.000Z') + second * 1000).toISOString();
  // Lines as the earlier server wrote them: two groups' lines interleaved, their times not in id order.
  const lines: [group: string, second: number][] = [
    ['a', 5],
    ['a', 1],
    ['b', 3],
    ['a', 7],
    ['b', 2],
    ['b', 6],
    ['a', 4],
  ];

  const upgraded = upgradeSuite('202701120100_log_line_spans', async (db) => {
    await createProject(db, { id: 'spanned', name: 'Spanned', slug: 'spanned', monthlyQuota: null });
    for (const group of ['a', 'b'])
      await db.run(
        `INSERT INTO log_groups (id, project_id, environment, fingerprint, fingerprint_key, level, message, occurrences,
           first_seen_at, last_seen_at) VALUES (?, 'spanned', 'live', ?, ?, 'info', ?, 4, ?, ?)`,
        [`log_${group}`, group, groupKey('spanned', 'live', group), `Group ${group}`, at(0), at(10)],
      );
    for (const [i, [group, second]] of lines.entries())
      await db.run(
        `INSERT INTO log_lines (group_id, project_id, environment, ts, level, data)
         VALUES (?, 'spanned', 'live', ?, 'info', ?)`,
        [`log_${group}`, at(second), JSON.stringify({ i })],
      );
  });

  it('gives every run of one group’s lines a span and drops the group index', async () => {
    const db = upgraded.server.db;
    const spans = await db.all<{ group_id: string; n: number | string }>(
      "SELECT group_id, n FROM log_line_spans WHERE project_id = 'spanned' ORDER BY group_id, first_id",
    );
    assert.deepEqual(
      spans.map((span) => [span.group_id, Number(span.n)]),
      [
        ['log_a', 2],
        ['log_a', 1],
        ['log_a', 1],
        ['log_b', 1],
        ['log_b', 2],
      ],
    );
    const index =
      db.dialect === 'sqlite'
        ? await db.get("SELECT 1 AS found FROM sqlite_master WHERE name = 'log_lines_by_group'")
        : await db.get("SELECT 1 AS found FROM pg_indexes WHERE indexname = 'log_lines_by_group'");
    assert.equal(index, undefined);
  });

  it("pages each group's lines from before newest first, by their own time", async () => {
    const db = upgraded.server.db;
    for (const [group, expected] of [
      ['log_a', [3, 0, 6, 1]],
      ['log_b', [5, 2, 4]],
    ] as const) {
      const seen: number[] = [];
      let cursor: { ts: string; id: string } | undefined;
      for (;;) {
        const page = await listLinePage<{ ts: string; id: number | string; data: string | Record<string, number> }>(
          db,
          'spanned',
          { groupId: group },
          2,
          cursor,
        );
        for (const row of page.rows) seen.push((typeof row.data === 'string' ? JSON.parse(row.data) : row.data).i);
        if (!page.hasMore) break;
        const last = page.rows.at(-1)!;
        cursor = page.next ?? { ts: last.ts, id: String(last.id) };
      }
      assert.deepEqual(seen, expected, group);
    }
  });
});
