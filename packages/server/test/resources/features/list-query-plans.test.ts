/**
 * Every list of ideas stays flat with 100,000 items in one project: the roadmap, GET /features,
 * the board's idea list and the management list read their page through an index of migration
 * 202611280200 in the order they return, with no sort of the table. Checked with the database's
 * own plan: SQLite's EXPLAIN QUERY PLAN, PostgreSQL's EXPLAIN (FORMAT JSON) after ANALYZE (as
 * autovacuum would have run). And the roadmap over HTTP answers what the spec says: columns in
 * order, each holding the most voted (then newest) public items, `limit` items over all columns.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Api } from '../../support/api.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { insertBulkFeatures } from '../../support/bulk-features.ts';
import { publicFeaturesQuery, roadmapQuery, type ListQuery } from '../../../src/resources/features/store.ts';
import {
  boardIdeasQuery,
  listBoardIdeas,
  type BoardIdeaQuery,
} from '../../../src/resources/features/board-read-model.ts';
import { mostVotedQuery, triageQuery } from '../../../src/resources/features/attention-read-model.ts';
import { trendingQueries } from '../../../src/resources/features/store-trending.ts';
import { countFeatures, featureCountQuery, type CountFilter } from '../../../src/resources/features/store-counts.ts';
import {
  listManagedFeatures,
  managedFeaturesQuery,
  type FeatureListFilter,
} from '../../../src/resources/features/management-read-model.ts';
import { planNodes } from '../../support/query-plans.ts';

const FEATURES = 100_000;
const ORDER = ['open', 'planned', 'in-progress', 'in-review', 'accepted', 'done', 'declined'];

describe('list query plans with 100,000 features', { timeout: 900_000 }, () => {
  let server: TestServer;
  let projectId: string;
  let liveKey: string;

  // The timeout bounds a hung seed, not its speed: 100,000 rows through every index and trigger
  // have taken minutes on a loaded 2-core machine.
  before(
    async () => {
      server = await startTestServer();
      ({ projectId, liveKey } = await server.createProject());
      const other = (await server.createProject()).projectId;
      await insertBulkFeatures(server.db, { count: FEATURES, projectId, otherProjectId: other });
      // Votes of long ago on a fifth of the ideas: trending must not read them.
      await server.db.run(
        `INSERT INTO votes (feature_id, voter_id, created_at) SELECT id, 'old-voter', '2026-01-01T00:00:00.000Z'
        FROM features WHERE vote_count % 5 = 0`,
      );
      await server.db.run(server.db.dialect === 'sqlite' ? 'ANALYZE' : 'ANALYZE votes');
      const count = await server.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM features WHERE project_id = ?', [
        projectId,
      ]);
      assert.equal(Number(count?.n), FEATURES - FEATURES / 50);
    },
    { timeout: 600_000 },
  );

  after(async () => {
    await server?.close();
  });

  /** The plan as text lines (SQLite) or the JSON plan (PostgreSQL), as one searchable string. */
  async function plan(query: ListQuery): Promise<string> {
    if (server.db.dialect === 'sqlite') {
      const rows = await server.db.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${query.sql}`, query.params);
      return rows.map((row) => row.detail).join('\n');
    }
    const rows = await server.db.all<{ 'QUERY PLAN': unknown }>(`EXPLAIN (FORMAT JSON) ${query.sql}`, query.params);
    const json = rows[0]?.['QUERY PLAN'];
    return typeof json === 'string' ? json : JSON.stringify(json);
  }

  /** Reads features only through the named index (one of them), never the whole table, and sorts nothing. */
  function assertIndexedNoSort(text: string, name: string, indexes: readonly string[]): void {
    if (server.db.dialect === 'sqlite') {
      const used = [...text.matchAll(/(?:features|\bf) USING (?:COVERING )?INDEX (\w+)/g)].map((m) => m[1]);
      assert.ok(used.length > 0, `${name}: no index\n${text}`);
      for (const index of used) assert.ok(indexes.includes(index!), `${name}: reads ${index}\n${text}`);
      assert.doesNotMatch(text, /SCAN (features|f)\b(?! USING)/, `${name}: full scan\n${text}`);
      assert.doesNotMatch(text, /TEMP B-TREE/, `${name}: sorts\n${text}`);
      return;
    }
    const nodes = planNodes(text);
    const reads = nodes.filter((node) => node['Relation Name'] === 'features');
    assert.ok(reads.length > 0, `${name}: no read of features\n${text}`);
    for (const node of reads) {
      assert.match(node['Node Type'], /^Index( Only)? Scan$/, `${name}: ${node['Node Type']}\n${text}`);
      assert.ok(indexes.includes(node['Index Name']!), `${name}: reads ${node['Index Name']}\n${text}`);
    }
    assert.ok(!nodes.some((node) => /Sort/.test(node['Node Type'])), `${name}: sorts\n${text}`);
  }

  const scope = () => ({ projectId, environment: 'live' as const });

  it('the roadmap merges one ordered index range per column', async () => {
    for (const [name, statuses, limit] of [
      ['every column', ORDER, 100],
      ['every column, limit 200', ORDER, 200],
      ['two columns', ['planned', 'done'], 50],
      ['one column', ['in-progress'], 100],
    ] as const) {
      const text = await plan(roadmapQuery(server.db.dialect, scope(), statuses, limit));
      assertIndexedNoSort(text, name, ['features_public_status_top']);
      if (server.db.dialect === 'postgres' && statuses.length > 1) {
        assert.ok(
          planNodes(text).some((node) => node['Node Type'] === 'Merge Append'),
          `${name}: no merge\n${text}`,
        );
      }
    }
  });

  it('GET /features pages newest first along an index, with each filter', async () => {
    for (const [name, filter, indexes] of [
      ['default', {}, ['features_public_newest']],
      ['a later page', { offset: 500 }, ['features_public_newest']],
      ['status', { status: 'planned' }, ['features_public_status_newest']],
      ['type', { type: 'bug' }, ['features_public_type_newest']],
      [
        'status and type',
        { status: 'done', type: 'bug' },
        ['features_public_status_newest', 'features_public_type_newest'],
      ],
    ] as const) {
      const text = await plan(publicFeaturesQuery(scope(), { limit: 50, offset: 0, ...filter }));
      assertIndexedNoSort(text, name, indexes);
    }
  });

  it('the board idea list pages along an index for top and new, with status or type', async () => {
    const board: [string, Partial<BoardIdeaQuery>, string[]][] = [
      ['top', {}, ['features_public_top']],
      ['top in a status', { status: 'planned' }, ['features_public_status_top']],
      ['top of a type', { type: 'bug' }, ['features_public_top']],
      ['new', { sort: 'new' }, ['features_public_newest']],
      ['new in a status', { sort: 'new', status: 'open' }, ['features_public_status_newest']],
      ['new of a type', { sort: 'new', type: 'bug' }, ['features_public_type_newest']],
    ];
    for (const [name, query, indexes] of board) {
      const { page } = boardIdeasQuery(server.db.dialect, projectId, { limit: 20, offset: 0, ...query });
      assertIndexedNoSort(await plan(page), `board ${name}`, indexes);
    }
  });

  it('the management list pages along an index for every sort', async () => {
    const managed: [string, Partial<FeatureListFilter>, string[]][] = [
      ['newest', { sort: 'newest' }, ['features_project_newest']],
      ['oldest', { sort: 'oldest' }, ['features_project_newest']],
      ['votes', { sort: 'votes' }, ['features_project_votes']],
      ['comments', { sort: 'comments' }, ['features_project_comments']],
      ['updated', { sort: 'updated' }, ['features_project_updated']],
      ['newest in one environment', { sort: 'newest', environment: 'live' }, ['features_project_newest']],
      [
        'votes in a status',
        { sort: 'votes', status: 'open' },
        ['features_project_votes', 'features_project_status_votes'],
      ],
      [
        'newest in a status',
        { sort: 'newest', status: 'new' },
        ['features_project_newest', 'features_project_status_newest'],
      ],
    ];
    for (const [name, filter, indexes] of managed) {
      const { page } = managedFeaturesQuery(server.db.dialect, projectId, {
        sort: 'newest',
        limit: 25,
        offset: 0,
        ...filter,
      });
      assertIndexedNoSort(await plan(page), `management ${name}`, indexes);
    }
  });

  it('trending ranks only the recently voted ideas, then walks the top index (board and management)', async () => {
    const sources = [
      [
        'board',
        boardIdeasQuery(server.db.dialect, projectId, { sort: 'trending', limit: 20, offset: 0 }).trending!,
        'features_public_top',
      ],
      [
        'board in a status',
        boardIdeasQuery(server.db.dialect, projectId, { sort: 'trending', status: 'open', limit: 20, offset: 0 })
          .trending!,
        'features_public_status_top',
      ],
      [
        'management',
        managedFeaturesQuery(server.db.dialect, projectId, { sort: 'trending', limit: 25, offset: 0 }).trending!,
        'features_project_votes',
      ],
    ] as const;
    for (const [name, { source, since }, index] of sources) {
      const queries = trendingQueries(server.db.dialect, source, since);
      assertIndexedNoSort(await plan(queries.cold(20, 0)), `${name} trending, the rest`, [index]);
      // The ranked part starts from the recent votes and looks each idea up by its key.
      for (const query of [queries.hot(20, 0), queries.hotCount()]) {
        const text = await plan(query);
        if (server.db.dialect === 'sqlite') {
          assert.match(text, /votes USING COVERING INDEX votes_recent/, `${name}: recent votes\n${text}`);
          assert.match(text, /SEARCH f USING INDEX sqlite_autoindex_features_1 \(id=\?\)/, `${name}: lookup\n${text}`);
          assert.doesNotMatch(text, /SCAN (features|f)\b(?! USING)/, `${name}: full scan\n${text}`);
        } else {
          const nodes = planNodes(text);
          for (const node of nodes.filter((n) => n['Relation Name'] === 'features'))
            assert.match(node['Node Type'], /^Index( Only)? Scan$/, `${name}: ${node['Node Type']}\n${text}`);
          assert.ok(!nodes.some((n) => n['Node Type'] === 'Seq Scan'), `${name}: full scan\n${text}`);
        }
      }
    }
  });

  it('trending pages are the order of ranking every idea, across the ranked and the rest', async () => {
    // 30 recently voted ideas of the project (1 to 3 recent votes each).
    const recent = new Date().toISOString();
    const voted = await server.db.all<{ id: string }>(
      `SELECT id FROM features WHERE project_id = ? AND environment = 'live' AND internal = 0 AND held = 0
        AND status = 'open' ORDER BY id LIMIT 30`,
      [projectId],
    );
    for (const [n, { id }] of voted.entries()) {
      for (let v = 0; v <= n % 3; v++)
        await server.db.run('INSERT INTO votes (feature_id, voter_id, created_at) VALUES (?, ?, ?)', [
          id,
          `voter${v}`,
          recent,
        ]);
    }
    const reference = await server.db.all<{ id: string }>(
      `SELECT f.id FROM features f WHERE f.project_id = ? AND f.environment = 'live' AND f.internal = 0 AND f.held = 0
        AND f.status = 'open'
        ORDER BY (SELECT COUNT(*) FROM votes v WHERE v.feature_id = f.id AND v.created_at >= ?) DESC,
          f.vote_count DESC, f.created_at DESC, f.id DESC LIMIT 80`,
      [projectId, new Date(Date.now() - 7 * 86_400_000).toISOString()],
    );
    const pages: string[] = [];
    for (const offset of [0, 20, 40, 60]) {
      const { rows } = await listBoardIdeas(server.db, projectId, {
        sort: 'trending',
        status: 'open',
        limit: 20,
        offset,
      });
      pages.push(...rows.map((row) => row.id));
    }
    assert.deepEqual(
      pages,
      reference.map((row) => row.id),
    );
    const managed = await listManagedFeatures(server.db, projectId, {
      sort: 'trending',
      environment: 'live',
      status: 'open',
      internal: false,
      limit: 25,
      offset: 25,
    });
    // Management sees held items too; compare with its own reference order on its page.
    const managedReference = await server.db.all<{ id: string }>(
      `SELECT f.id FROM features f WHERE f.project_id = ? AND f.environment = 'live' AND f.internal = 0 AND f.status = 'open'
        ORDER BY (SELECT COUNT(*) FROM votes v WHERE v.feature_id = f.id AND v.created_at >= ?) DESC,
          f.vote_count DESC, f.created_at DESC, f.id DESC LIMIT 25 OFFSET 25`,
      [projectId, new Date(Date.now() - 7 * 86_400_000).toISOString()],
    );
    assert.deepEqual(
      managed.rows.map((row) => row.id),
      managedReference.map((row) => row.id),
    );
  });

  it("the dashboard's attention lists merge one ordered index range per project (and status)", async () => {
    for (const projects of [[projectId], [projectId, 'another-project', 'a-third']]) {
      for (const [name, query, index] of [
        ['to triage', triageQuery(server.db.dialect, projects, 10), 'features_untriaged'],
        ['most voted', mostVotedQuery(server.db.dialect, projects, 10), 'features_project_status_votes'],
      ] as const) {
        assertIndexedNoSort(await plan(query), `${name}, ${projects.length} projects`, [index]);
      }
    }
    // The same as ranking every idea of the projects at once.
    const rows = await server.db.all<{ id: string }>(mostVotedQuery(server.db.dialect, [projectId], 10).sql, [
      ...mostVotedQuery(server.db.dialect, [projectId], 10).params,
    ]);
    const reference = await server.db.all<{ id: string }>(
      `SELECT id FROM features WHERE project_id = ? AND status IN ('open', 'planned', 'in-progress', 'in-review', 'accepted')
        AND vote_count > 0 ORDER BY vote_count DESC, created_at DESC, id DESC LIMIT 10`,
      [projectId],
    );
    assert.deepEqual(
      rows.map((row) => row.id),
      reference.map((row) => row.id),
    );
  });

  it('a rarely used tag reads its own items, not the project; the page is the same as ranking them all', async () => {
    await server.db.run("INSERT INTO tags (id, project_id, name, created_at) VALUES ('tag_rare', ?, 'rare', ?)", [
      projectId,
      new Date().toISOString(),
    ]);
    await server.db.run(
      `INSERT INTO feature_tags (feature_id, tag_id) SELECT id, 'tag_rare' FROM features
        WHERE project_id = ? AND id LIKE '%000'`,
      [projectId],
    );
    const board = boardIdeasQuery(server.db.dialect, projectId, { tagId: 'tag_rare', limit: 20, offset: 0 });
    const managed = managedFeaturesQuery(server.db.dialect, projectId, {
      tag: 'tag_rare',
      sort: 'votes',
      limit: 20,
      offset: 0,
    });
    for (const [name, query] of [
      ['board page', board.taggedPage!],
      ['board count', board.count],
      ['management page', managed.taggedPage!],
      ['management count', managed.count],
    ] as const) {
      const text = await plan(query);
      if (server.db.dialect === 'sqlite') {
        assert.match(text, /SEARCH ft USING (COVERING )?INDEX feature_tags_by_tag/, `${name}\n${text}`);
        assert.match(text, /SEARCH f USING INDEX sqlite_autoindex_features_1 \(id=\?\)/, `${name}\n${text}`);
      } else {
        for (const node of planNodes(text).filter((n) => n['Relation Name'] === 'features'))
          assert.match(node['Node Type'], /^Index( Only)? Scan$/, `${name}: ${node['Node Type']}\n${text}`);
      }
    }
    const { rows, total } = await listBoardIdeas(server.db, projectId, { tagId: 'tag_rare', limit: 20, offset: 0 });
    const reference = await server.db.all<{ id: string }>(
      `SELECT f.id FROM features f JOIN feature_tags ft ON ft.feature_id = f.id AND ft.tag_id = 'tag_rare'
        WHERE f.project_id = ? AND f.environment = 'live' AND f.internal = 0 AND f.held = 0
        ORDER BY f.vote_count DESC, f.created_at DESC, f.id DESC`,
      [projectId],
    );
    assert.equal(total, reference.length);
    assert.deepEqual(
      rows.map((row) => row.id),
      reference.slice(0, 20).map((row) => row.id),
    );
  });

  it('list totals come from kept counts, equal to counting the items, through every kind of change', async () => {
    const filters: CountFilter[] = [
      {},
      { environment: 'live', internal: 0, held: 0 },
      { environment: 'live', internal: 0, held: 0, status: 'planned' },
      { environment: 'live', internal: 0, held: 0, type: 'bug', status: 'done' },
      { environment: 'test', internal: 1 },
      { status: 'new' },
    ];
    const check = async (when: string) => {
      for (const filter of filters) {
        const where = Object.keys(filter).map((column) => `${column} = ?`);
        const counted = await server.db.get<{ n: number }>(
          `SELECT COUNT(*) AS n FROM features WHERE ${['project_id = ?', ...where].join(' AND ')}`,
          [projectId, ...Object.values(filter)],
        );
        assert.equal(
          await countFeatures(server.db, projectId, filter),
          Number(counted?.n),
          `${when}: ${JSON.stringify(filter)}`,
        );
      }
    };
    await check('seeded');
    const [a, b, c] = await server.db.all<{ id: string }>(
      `SELECT id FROM features WHERE project_id = ? AND environment = 'live' AND internal = 0 AND held = 0
        AND status = 'planned' ORDER BY id LIMIT 3`,
      [projectId],
    );
    await server.db.run("UPDATE features SET status = 'done', type = 'bug' WHERE id = ?", [a!.id]);
    await server.db.run('UPDATE features SET internal = 1, held = 1 WHERE id = ?', [b!.id]);
    await server.db.run("UPDATE features SET environment = 'test' WHERE id = ?", [c!.id]);
    await server.db.run('UPDATE features SET vote_count = vote_count + 1, title = ? WHERE id = ?', ['Renamed', a!.id]);
    await check('after changes');
    await server.db.run('DELETE FROM features WHERE id IN (?, ?)', [a!.id, b!.id]);
    await check('after deletes');
    // Read through the counts' primary key, never the features.
    const text = await plan(
      featureCountQuery(projectId, { environment: 'live', internal: 0, held: 0, status: 'open' }),
    );
    if (server.db.dialect === 'sqlite')
      assert.match(
        text,
        /SEARCH feature_counts USING (INDEX|PRIMARY KEY|COVERING INDEX) sqlite_autoindex_feature_counts_1/,
        text,
      );
    else assert.ok(!text.includes('"Relation Name":"features"'), text);
    // The board's and the management list's totals (no tag, no search) are those counts.
    for (const query of [
      boardIdeasQuery(server.db.dialect, projectId, { status: 'open', limit: 20, offset: 0 }).count,
      managedFeaturesQuery(server.db.dialect, projectId, { sort: 'newest', environment: 'live', limit: 20, offset: 0 })
        .count,
    ])
      assert.match(query.sql, /FROM feature_counts/);
  });

  it('the roadmap answers as the spec says with 100,000 items', async () => {
    const api = new Api(server.baseUrl, liveKey);
    // The reference: every public item of the project ranked at once, as the spec words it.
    const ranked = await server.db.all<{ id: string; status: string; vote_count: number; created_at: string }>(
      `SELECT id, status, vote_count, created_at FROM features
        WHERE project_id = ? AND environment = 'live' AND internal = 0 AND held = 0 AND status <> 'new'
        ORDER BY vote_count DESC, created_at DESC, id DESC`,
      [projectId],
    );
    for (const [query, statuses, limit] of [
      ['', ORDER, 100],
      ['?limit=200', ORDER, 200],
      ['?status=done,planned&limit=7', ['planned', 'done'], 7],
    ] as const) {
      const res = await api.get(`/roadmap${query}`);
      assert.equal(res.status, 200);
      const expected = ranked.filter((row) => (statuses as readonly string[]).includes(row.status)).slice(0, limit);
      assert.equal(res.body.total, limit);
      assert.deepEqual(Object.keys(res.body).sort(), ['columns', 'total']);
      assert.deepEqual(
        res.body.columns.map((column: { status: string }) => column.status),
        statuses,
      );
      for (const column of res.body.columns as { status: string; items: Record<string, unknown>[] }[]) {
        assert.deepEqual(
          column.items.map((item) => item['id']),
          expected.filter((row) => row.status === column.status).map((row) => row.id),
          `column ${column.status} of /roadmap${query}`,
        );
      }
      const first = res.body.columns[0].items[0];
      assert.deepEqual(Object.keys(first).sort(), ['commentCount', 'createdAt', 'id', 'status', 'title', 'voteCount']);
    }
  });

  it('the roadmap joins the response memo: a repeat is answered from it until a write', async () => {
    if (!server.app.responseMemo.enabled) return; // no change marker on this database yet
    const api = new Api(server.baseUrl, liveKey);
    const first = await api.get('/roadmap?limit=5');
    const hits = server.app.responseMemo.hits;
    const again = await api.get('/roadmap?limit=5');
    assert.equal(server.app.responseMemo.hits, hits + 1);
    assert.deepEqual(again.body, first.body);
    // A vote moves an item to the top of its column: the next read sees it.
    const planned = first.body.columns.find((column: { status: string }) => column.status === 'planned');
    const last = await server.db.get<{ id: string }>(
      `SELECT id FROM features WHERE project_id = ? AND environment = 'live' AND internal = 0 AND held = 0
        AND status = 'planned' ORDER BY vote_count ASC LIMIT 1`,
      [projectId],
    );
    await server.db.run('UPDATE features SET vote_count = 5000 WHERE id = ?', [last!.id]);
    const after = await api.get('/roadmap?limit=5');
    const top = [...after.body.columns.flatMap((column: { items: { id: string }[] }) => column.items)];
    assert.equal(top.length, 5);
    assert.ok(top.some((item: { id: string }) => item.id === last!.id));
    assert.notDeepEqual(planned, undefined);
  });
});
