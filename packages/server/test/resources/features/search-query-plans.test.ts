/**
 * A search reads one project's matches, not every project's (issue 30: the inbox and the board
 * search flat at 100,000 ideas). A word that another, larger project uses everywhere must cost a
 * small project nothing: PostgreSQL's GIN index of features.search_document (migration
 * 202701010100) answers with the project's matches only, SQLite's count of a search alone is read
 * in features_fts (its `scope` column, migration 202612310100) without a row of features. Checked
 * with the database's own plan, next to the same search through the management API (total, typo).
 *
 * And a search reads a bounded number of the project's matches however many there are
 * (search-read-model.ts): the count stops past SEARCH_COUNT_CAP ("more than 1,000": totalCapped),
 * relevance ranks at most RELEVANCE_CANDIDATES, a sorted page of few matches sorts those and a
 * page of many walks the order index; the answers stay the right ones (every idea of the large
 * project matches `idea`, so its newest matches are its newest ideas).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { insertBulkFeatures } from '../../support/bulk-features.ts';
import { managedProject, type ManagedProject } from '../../support/manage-fixtures.ts';
import { listManagedFeatures, managedFeaturesQuery } from '../../../src/resources/features/management-read-model.ts';
import { boardIdeasQuery, listBoardIdeas, textCondition } from '../../../src/resources/features/board-read-model.ts';
import { RELEVANCE_CANDIDATES, SEARCH_COUNT_CAP } from '../../../src/resources/features/search-read-model.ts';
import type { ListQuery } from '../../../src/resources/features/store.ts';
import { type PgNode, planNodes } from '../../support/query-plans.ts';

/** Ideas in all; every 50th is the small project's (insertBulkFeatures), each titled "Idea number i". */
const IDEAS = 5_000;
const SMALL = IDEAS / 50;

describe('search query plans: one project of many', { timeout: 600_000 }, () => {
  let server: TestServer;
  let small: ManagedProject;
  let large: ManagedProject;
  before(async () => {
    server = await startTestServer();
    small = await managedProject(server);
    large = await managedProject(server);
    await insertBulkFeatures(server.db, { count: IDEAS, projectId: large.projectId, otherProjectId: small.projectId });
  });
  after(async () => server?.close());

  /** The index scans of PostgreSQL's plan of `query` as it ran, with sequential and plain index scans off. */
  async function pgIndexScans(query: ListQuery): Promise<PgNode[]> {
    return server.db.transaction(async (tx) => {
      // Planner choices between equally good plans vary with the machine; forbid the others so the
      // index's own answer is seen. LOCAL: gone with the transaction.
      await tx.run('SET LOCAL enable_seqscan = off');
      await tx.run('SET LOCAL enable_indexscan = off');
      const rows = await tx.all<{ 'QUERY PLAN': unknown }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${query.sql}`, query.params);
      return planNodes(rows[0]!['QUERY PLAN']).filter((node) => node['Node Type'] === 'Bitmap Index Scan');
    });
  }

  it('the inbox counts and lists only the project’s matches of a word every idea has', async () => {
    const list = await small.member.get(`/projects/${small.projectId}/features?q=idea&limit=50`);
    assert.equal(list.status, 200, list.text);
    assert.equal(list.body.total, SMALL);
    assert.equal(list.body.features.length, 50);
    const typo = await small.member.get(`/projects/${small.projectId}/features?q=ideaa&limit=50`);
    assert.equal(typo.status, 200, typo.text);
    assert.equal(typo.body.total, SMALL, 'the typo is corrected to the same word');

    // The search condition alone (what the inbox, the board and the suggestions add to their
    // other filters) selects this project's ideas only: the project is inside the index.
    const text = textCondition(server.db.dialect, small.projectId, ['idea'], new Map());
    const alone = { sql: `SELECT COUNT(*) AS n FROM features f WHERE ${text.sql}`, params: text.params };
    const counted = await server.db.get<{ n: number | string }>(alone.sql, alone.params);
    assert.equal(Number(counted?.n), SMALL);

    const count = managedFeaturesQuery(server.db.dialect, small.projectId, {
      q: 'idea',
      sort: 'newest',
      limit: 50,
      offset: 0,
    }).count;
    if (server.db.dialect === 'sqlite') {
      const plan = await server.db.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${count.sql}`, count.params);
      const detail = plan.map((row) => row.detail).join('\n');
      assert.match(detail, /features_fts VIRTUAL TABLE/, detail);
      assert.doesNotMatch(detail, /\b(features|f)\b/, `the count reads no idea row\n${detail}`);
      return;
    }
    const scans = await pgIndexScans(alone);
    assert.equal(scans.length, 1, JSON.stringify(scans));
    assert.equal(scans[0]!['Index Name'], 'features_search_document');
    assert.equal(scans[0]!['Actual Rows'], SMALL, 'the index answers with this project’s matches only');
  });

  /** SQLite's plan as text lines, PostgreSQL's (FORMAT JSON, not run) as its nodes. */
  async function sqlitePlan(query: ListQuery): Promise<string> {
    const plan = await server.db.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${query.sql}`, query.params);
    return plan.map((row) => row.detail).join('\n');
  }
  async function pgPlan(query: ListQuery): Promise<PgNode[]> {
    const rows = await server.db.all<{ 'QUERY PLAN': unknown }>(`EXPLAIN (FORMAT JSON) ${query.sql}`, query.params);
    return planNodes(rows[0]!['QUERY PLAN']);
  }
  const sqlite = () => server.db.dialect === 'sqlite';

  it('a search matching more than the cap says "more than" and reads no more than the cap', async () => {
    const largeIdeas = IDEAS - SMALL;
    assert.ok(largeIdeas > SEARCH_COUNT_CAP + 1);
    const list = await large.member.get(`/projects/${large.projectId}/features?q=idea&limit=50`);
    assert.equal(list.status, 200, list.text);
    assert.equal(list.body.total, SEARCH_COUNT_CAP + 1);
    assert.equal(list.body.totalCapped, true);
    // All of the project's ideas match: the newest matches are the newest ideas, in order.
    const newest = await large.member.get(`/projects/${large.projectId}/features?limit=50`);
    assert.equal(newest.body.totalCapped, false);
    assert.equal(newest.body.total, largeIdeas);
    assert.deepEqual(
      list.body.features.map((f: { id: string }) => f.id),
      newest.body.features.map((f: { id: string }) => f.id),
    );
    const typo = await large.member.get(`/projects/${large.projectId}/features?q=ideaa&sort=votes&limit=50`);
    assert.equal(typo.body.totalCapped, true, 'a corrected word is bounded the same way');
    const byVotes = await large.member.get(`/projects/${large.projectId}/features?sort=votes&limit=50`);
    assert.deepEqual(
      typo.body.features.map((f: { id: string }) => f.id),
      byVotes.body.features.map((f: { id: string }) => f.id),
    );
    const few = await small.member.get(`/projects/${small.projectId}/features?q=idea&limit=50`);
    assert.equal(few.body.totalCapped, false);
    assert.equal(few.body.total, SMALL);

    // The count statements answer cap + 1, not the 4,900 matches: they stop reading there.
    const filters = [{}, { environment: 'live' as const }, { status: 'open' }];
    for (const filter of filters) {
      const { count } = managedFeaturesQuery(server.db.dialect, large.projectId, {
        q: 'idea',
        sort: 'newest',
        limit: 50,
        offset: 0,
        ...filter,
      });
      const row = await server.db.get<{ total: number | string }>(count.sql, count.params);
      assert.ok(Number(row?.total) <= SEARCH_COUNT_CAP + 1, `${JSON.stringify(filter)}: ${row?.total}`);
    }
    const board = boardIdeasQuery(server.db.dialect, large.projectId, { q: 'idea', limit: 20, offset: 0 });
    const boardCount = await server.db.get<{ total: number | string }>(board.count.sql, board.count.params);
    assert.equal(Number(boardCount?.total), SEARCH_COUNT_CAP + 1);

    const listed = await listBoardIdeas(server.db, large.projectId, { q: 'idea', limit: 20, offset: 0 });
    assert.equal(listed.totalCapped, true);
    assert.equal(listed.rows.length, 20);
    assert.ok(listed.rows.every((row) => /^Idea number \d+$/.test(row.title)));
    const smallBoard = await listBoardIdeas(server.db, small.projectId, { q: 'idea', limit: 20, offset: 0 });
    assert.equal(smallBoard.totalCapped, false);
    const publicSmall = await server.db.get<{ n: number | string }>(
      `SELECT COUNT(*) AS n FROM features WHERE project_id = ? AND environment = 'live' AND internal = 0 AND held = 0`,
      [small.projectId],
    );
    assert.equal(smallBoard.total, Number(publicSmall?.n));
  });

  it('relevance ranks a bounded candidate set: an exact title match first among few matches', async () => {
    // One idea of the large project with a rare word in its title, one with it in the description only.
    await server.db.run(
      `UPDATE features SET title = 'Zephyr export of invoices' WHERE id = (SELECT MIN(id) FROM features WHERE project_id = ? AND environment = 'live' AND internal = 0 AND held = 0)`,
      [large.projectId],
    );
    await server.db.run(
      `UPDATE features SET description = 'Mentions zephyr in passing.' WHERE id = (SELECT MAX(id) FROM features WHERE project_id = ? AND environment = 'live' AND internal = 0 AND held = 0)`,
      [large.projectId],
    );
    const found = await listBoardIdeas(server.db, large.projectId, { q: 'zephyr', limit: 20, offset: 0 });
    assert.equal(found.total, 2);
    assert.equal(found.totalCapped, false);
    assert.equal(found.rows[0]!.title, 'Zephyr export of invoices', 'the title match ranks first');
    const typo = await listBoardIdeas(server.db, large.projectId, { q: 'zephir', limit: 20, offset: 0 });
    assert.deepEqual(
      typo.rows.map((row) => row.id),
      found.rows.map((row) => row.id),
    );

    const { page } = boardIdeasQuery(server.db.dialect, large.projectId, { q: 'idea', limit: 20, offset: 0 });
    if (sqlite()) {
      const detail = await sqlitePlan(page);
      // FTS5 hands the candidates over newest rowid first (no sort of the matches), each idea
      // looked up by rowid; only the bounded candidates are sorted by rank.
      assert.match(detail, /SCAN features_fts VIRTUAL TABLE/, detail);
      assert.match(detail, /SEARCH f USING INTEGER PRIMARY KEY \(rowid=\?\)/, detail);
      assert.equal(detail.match(/USE TEMP B-TREE FOR ORDER BY/g)?.length, 1, detail);
      assert.ok(page.params.includes(RELEVANCE_CANDIDATES), 'the candidate set is bounded');
    } else {
      const nodes = await pgPlan(page);
      // A Limit over the matches (the candidates) below the sort by rank, and one above it (the page).
      const limits = nodes.filter((node) => node['Node Type'] === 'Limit');
      assert.equal(limits.length, 2, JSON.stringify(nodes.map((node) => node['Node Type'])));
    }
  });

  it('a sorted page of many matches walks the order index; of few, it sorts the matches', async () => {
    const statements = managedFeaturesQuery(server.db.dialect, large.projectId, {
      q: 'idea',
      sort: 'newest',
      limit: 50,
      offset: 0,
    });
    const few = statements.matchesPage;
    if (!sqlite()) {
      assert.equal(few, undefined, "PostgreSQL's planner chooses between the two itself");
      const nodes = await pgPlan(statements.count);
      assert.ok(
        nodes.some((node) => node['Node Type'] === 'Limit'),
        'the count reads at most cap + 1 matches',
      );
      return;
    }
    const walk = await sqlitePlan(statements.page);
    assert.match(walk, /features_project_newest/, walk);
    assert.doesNotMatch(walk, /USE TEMP B-TREE FOR ORDER BY/, walk);
    const sorted = await sqlitePlan(few!);
    assert.match(sorted, /SCAN features_fts VIRTUAL TABLE/, sorted);
    assert.match(sorted, /SEARCH f USING INTEGER PRIMARY KEY \(rowid=\?\)/, sorted);
    // The few matches come back right too: the small project's newest matching ideas.
    const smallList = await listManagedFeatures(server.db, small.projectId, {
      q: 'idea',
      sort: 'oldest',
      limit: 10,
      offset: 5,
    });
    const oldest = await listManagedFeatures(server.db, small.projectId, { sort: 'oldest', limit: 10, offset: 5 });
    assert.equal(smallList.totalCapped, false);
    assert.deepEqual(
      smallList.rows.map((row) => row.id),
      oldest.rows.map((row) => row.id),
    );
  });
});
