/**
 * The board's idea list and "similar ideas" suggestions (resources/features/board-read-model.ts),
 * called against a real server's database (SQLite or PostgreSQL, SIGNPOST_TEST_DB): full-text
 * search through the engine's own index, filters, the three sorts, paging over a few hundred
 * ideas, hostile search text, and never an internal, held or test-environment idea.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { managedProject, type ManagedProject } from '../../support/manage-fixtures.ts';
import { insertFeature, listBoardIdeas, suggestSimilarIdeas } from '../../../src/resources/features/index.ts';
import type { BoardIdeaQuery } from '../../../src/resources/features/index.ts';

const DAY = 24 * 3600 * 1000;
const WORDS = ['export', 'calendar', 'billing', 'widget', 'search', 'mobile', 'theme', 'invoice', 'sync', 'report'];

describe('board: idea list and search', () => {
  let server: TestServer;
  let p: ManagedProject;
  let other: ManagedProject;
  /** Every public idea seeded, by id: title, votes, created, status, type. */
  const seeded = new Map<string, { title: string; votes: number; created: string; status: string; type: string }>();
  const hidden = new Set<string>();
  let darkId = '';
  let recentlyVoted = '';

  const list = (query: Partial<BoardIdeaQuery> = {}) =>
    listBoardIdeas(server.db, p.projectId, { limit: 50, offset: 0, ...query });

  async function idea(
    title: string,
    description: string,
    options: {
      internal?: boolean;
      held?: boolean;
      environment?: 'live' | 'test';
      votes?: number;
      daysAgo?: number;
      type?: 'feature' | 'bug';
      status?: string;
      projectId?: string;
    } = {},
  ): Promise<string> {
    const row = await insertFeature(
      server.db,
      { projectId: options.projectId ?? p.projectId, environment: options.environment ?? 'live' },
      {
        title,
        description,
        type: options.type ?? 'feature',
        status: (options.status ?? 'open') as 'open',
        internal: options.internal ?? false,
      },
    );
    const created = new Date(Date.now() - (options.daysAgo ?? 0) * DAY).toISOString();
    await server.db.run('UPDATE features SET vote_count = ?, created_at = ?, held = ? WHERE id = ?', [
      options.votes ?? 0,
      created,
      options.held ? 1 : 0,
      row.id,
    ]);
    const isPublic =
      !options.internal && !options.held && (options.environment ?? 'live') === 'live' && !options.projectId;
    if (isPublic) {
      seeded.set(row.id, {
        title,
        votes: options.votes ?? 0,
        created,
        status: options.status ?? 'open',
        type: options.type ?? 'feature',
      });
    } else hidden.add(row.id);
    return row.id;
  }

  before(async () => {
    server = await startTestServer();
    p = await managedProject(server);
    other = await managedProject(server);
    // 300 public ideas: two words each from WORDS, votes and ages spread out (ties included).
    for (let i = 0; i < 300; i++) {
      const a = WORDS[i % WORDS.length]!;
      const b = WORDS[Math.floor(i / WORDS.length) % WORDS.length]!;
      await idea(`Idea ${i}: ${a} ${b}`, `Number ${i} asks for better ${a} and ${b} support.`, {
        votes: (i * 37) % 50,
        daysAgo: (i % 60) + i / 1000,
        type: i % 3 === 0 ? 'bug' : 'feature',
        status: i % 4 === 0 ? 'planned' : 'open',
      });
    }
    darkId = await idea('Dark mode for the dashboard', 'Please add a dark theme; my eyes hurt at night.', {
      votes: 3,
      daysAgo: 100,
    });
    // Hidden ones, all matching "secretive" and "dark": never shown.
    await idea('Secretive internal dark plan', 'internal roadmap dark', { internal: true, votes: 999 });
    await idea('Secretive held dark idea', 'awaiting moderation dark', { held: true, votes: 999 });
    await idea('Secretive test dark idea', 'written with a test key dark', { environment: 'test', votes: 999 });
    await idea('Secretive other project dark', 'another project dark', { projectId: other.projectId, votes: 999 });
    // Trending: an old idea with few votes, voted on a lot this week.
    recentlyVoted = await idea('Quiet old idea about keyboards', 'Keyboard shortcuts everywhere.', {
      votes: 12,
      daysAgo: 300,
    });
    for (let v = 0; v < 12; v++) {
      await server.db.run('INSERT INTO votes (feature_id, voter_id, created_at) VALUES (?, ?, ?)', [
        recentlyVoted,
        `voter-${v}`,
        new Date(Date.now() - (v % 5) * DAY).toISOString(),
      ]);
    }
    // A popular idea whose votes are all older than a week.
    const popular = [...seeded.entries()].sort((x, y) => y[1].votes - x[1].votes)[0]![0];
    for (let v = 0; v < 20; v++) {
      await server.db.run('INSERT INTO votes (feature_id, voter_id, created_at) VALUES (?, ?, ?)', [
        popular,
        `old-${v}`,
        new Date(Date.now() - (10 + v) * DAY).toISOString(),
      ]);
    }
  });
  after(() => server.close());

  const expectedOrder = (compare: (a: any, b: any) => number, filter: (x: any) => boolean = () => true) =>
    [...seeded.entries()]
      .map(([id, x]) => ({ id, ...x }))
      .filter(filter)
      .sort(compare)
      .map((x) => x.id);
  const newest = (a: any, b: any) => b.created.localeCompare(a.created) || b.id.localeCompare(a.id);
  const top = (a: any, b: any) => b.votes - a.votes || newest(a, b);

  it('lists public ideas only, with total, sorted top by default, paged without gaps or repeats', async () => {
    const first = await list();
    assert.equal(first.total, seeded.size);
    const all: string[] = [];
    for (let offset = 0; offset < seeded.size + 50; offset += 50) {
      const page = await list({ offset, limit: 50 });
      assert.equal(page.total, seeded.size);
      all.push(...page.rows.map((row) => row.id));
    }
    assert.deepEqual(all, expectedOrder(top));
    for (const id of hidden) assert.ok(!all.includes(id));
    const row = first.rows[0]!;
    assert.deepEqual(Object.keys(row).sort(), [
      'commentCount',
      'createdAt',
      'excerpt',
      'id',
      'releasedIn',
      'status',
      'tags',
      'title',
      'type',
      'voteCount',
    ]);
  });

  it('sorts new: newest first', async () => {
    const page = await list({ sort: 'new', limit: 100 });
    assert.deepEqual(
      page.rows.map((row) => row.id),
      expectedOrder(newest).slice(0, 100),
    );
  });

  it('sorts trending: votes of the last 7 days first, then votes, then newest', async () => {
    const page = await list({ sort: 'trending', limit: 30 });
    assert.equal(page.rows[0]!.id, recentlyVoted);
    assert.deepEqual(
      page.rows.slice(1).map((row) => row.id),
      expectedOrder(top, (x) => x.id !== recentlyVoted).slice(0, 29),
    );
  });

  it('filters by status and type, before paging', async () => {
    const planned = await list({ status: 'planned', limit: 500 });
    assert.equal(planned.total, expectedOrder(top, (x) => x.status === 'planned').length);
    assert.ok(planned.rows.every((row) => row.status === 'planned'));
    const bugs = await list({ type: 'bug', status: 'planned', limit: 500 });
    assert.deepEqual(
      bugs.rows.map((row) => row.id),
      expectedOrder(top, (x) => x.type === 'bug' && x.status === 'planned'),
    );
    assert.equal((await list({ status: 'no-such-status' })).total, 0);
  });

  it('searches full text: every word, as a prefix, in title or description, best match first', async () => {
    const calendar = await list({ q: 'calendar', limit: 500 });
    const expected = expectedOrder(top, (x) => x.title.includes('calendar'));
    assert.equal(calendar.total, expected.length);
    assert.deepEqual(new Set(calendar.rows.map((row) => row.id)), new Set(expected));

    // Prefixes of two words, both required.
    const both = await list({ q: 'calen BILL', limit: 500 });
    const bothExpected = expectedOrder(top, (x) => x.title.includes('calendar') && x.title.includes('billing'));
    assert.ok(bothExpected.length > 0);
    assert.deepEqual(new Set(both.rows.map((row) => row.id)), new Set(bothExpected));

    // Description words count too; the title match ranks first.
    const dark = await list({ q: 'dark' });
    assert.deepEqual(
      dark.rows.map((row) => row.id),
      [darkId],
    );
    const eyes = await list({ q: 'eyes night' });
    assert.deepEqual(
      eyes.rows.map((row) => row.id),
      [darkId],
    );
    // A title hit outranks a description-only hit, whatever the votes.
    const inDescription = await idea('Stripes everywhere', 'Somewhere in here a zebra is mentioned once.', {
      votes: 40,
    });
    const inTitle = await idea('Zebra crossing', 'Short.', { daysAgo: 400 });
    const ranked = await list({ q: 'zebra' });
    assert.deepEqual(
      ranked.rows.map((row) => row.id),
      [inTitle, inDescription],
    );
    assert.ok((await list({ q: 'keyboard' })).rows.some((row) => row.id === recentlyVoted));

    // Search with a sort and a filter.
    const sorted = await list({ q: 'export', sort: 'new', type: 'bug', limit: 500 });
    assert.deepEqual(
      sorted.rows.map((row) => row.id),
      expectedOrder(newest, (x) => x.title.includes('export') && x.type === 'bug'),
    );
  });

  it('keeps internal, held, test-environment and other projects’ ideas out of every search and suggestion', async () => {
    for (const q of ['secretive', 'dark', 'secret', 'internal', 'moderation', 'project']) {
      const found = await list({ q, limit: 500 });
      for (const row of found.rows) assert.ok(!hidden.has(row.id), `${q} found ${row.title}`);
      for (const row of await suggestSimilarIdeas(server.db, p.projectId, `${q} something`, 50)) {
        assert.ok(!hidden.has(row.id), `suggestion for ${q}: ${row.title}`);
      }
    }
    assert.equal((await list({ q: 'secretive' })).total, 0);
    assert.deepEqual(await suggestSimilarIdeas(server.db, p.projectId, 'secretive', 10), []);
  });

  it('treats hostile search text as plain words: no SQL or FTS errors', async () => {
    const hostile = [
      '"',
      '""',
      "'",
      "''; DROP TABLE features; --",
      '*',
      'dark*',
      '"dark',
      'dark"',
      '(dark',
      'dark)',
      '()',
      'NEAR',
      'NEAR(dark eyes)',
      'dark NEAR eyes',
      'dark AND eyes',
      'dark OR eyes',
      'NOT dark',
      '-dark',
      'dark -eyes',
      'title:dark',
      '{title}: dark',
      '^dark',
      'dark & eyes | !night',
      'dark:* & eyes',
      "dark' | 'x",
      '\\',
      '%_',
      '?',
      '$1',
      'é',
      '\u0301',
      'naïve café',
      '日本語',
      '🙂',
      'a'.repeat(10_000),
      `${'word '.repeat(500)}dark`,
      'x\u200by',
    ];
    for (const q of hostile) {
      const found = await list({ q });
      assert.ok(found.total >= 0, q);
      await suggestSimilarIdeas(server.db, p.projectId, q, 5);
    }
    // Operators are plain separators: these mean "dark eyes".
    for (const q of ['"dark" "eyes"', 'dark & eyes', '(dark) -eyes*', 'dark:* & eyes']) {
      const found = await list({ q });
      assert.deepEqual(
        found.rows.map((row) => row.id),
        [darkId],
        q,
      );
    }
    // NEAR, AND, NOT are words, not operators: nothing has all of them.
    assert.equal((await list({ q: 'dark NEAR eyes' })).total, 0);
  });

  it('treats empty and punctuation-only text as no search', async () => {
    for (const q of ['', '   ', '"*()-', '!!!', ':']) {
      assert.equal((await list({ q })).total, seeded.size, JSON.stringify(q));
      assert.deepEqual(await suggestSimilarIdeas(server.db, p.projectId, q, 5), []);
    }
  });

  it('suggests similar ideas as the user types: any word, prefixes, best match first', async () => {
    const found = await suggestSimilarIdeas(server.db, p.projectId, 'A dark mode, please', 5);
    assert.ok(found.length > 0 && found.length <= 5);
    assert.equal(found[0]!.id, darkId);
    const partial = await suggestSimilarIdeas(server.db, p.projectId, 'keyb', 5);
    assert.ok(partial.some((row) => row.id === recentlyVoted));
    assert.deepEqual(await suggestSimilarIdeas(server.db, p.projectId, 'zzzzqqq', 5), []);
  });

  it('filters by tag and shows each idea’s tags', async () => {
    const tag = (await p.admin.post(`/projects/${p.projectId}/tags`, { name: 'Mobile', color: '#112233' })).body;
    const otherTag = (await p.admin.post(`/projects/${p.projectId}/tags`, { name: 'Desktop' })).body;
    const mobile = [...seeded.entries()].filter(([, x]) => x.title.includes('mobile')).map(([id]) => id);
    for (const id of mobile.slice(0, 7)) {
      const set = await p.admin.put(`/projects/${p.projectId}/features/${id}/tags`, { tagIds: [tag.id, otherTag.id] });
      assert.equal(set.status, 200);
    }
    const tagged = await list({ tagId: tag.id, limit: 500 });
    assert.equal(tagged.total, 7);
    assert.deepEqual(new Set(tagged.rows.map((row) => row.id)), new Set(mobile.slice(0, 7)));
    assert.deepEqual(tagged.rows[0]!.tags, [
      { id: otherTag.id, name: 'Desktop', color: null },
      { id: tag.id, name: 'Mobile', color: '#112233' },
    ]);
    const searched = await list({ tagId: tag.id, q: 'mobile', limit: 500 });
    assert.equal(searched.total, 7);
    assert.equal((await list({ tagId: 'tag_nope' })).total, 0);
  });

  it('gives an excerpt of the description', async () => {
    const id = await idea('Long one', `First line.\n\n${'word '.repeat(100)}`);
    const row = (await list({ q: 'long one' })).rows.find((r) => r.id === id)!;
    assert.ok(row.excerpt.startsWith('First line. word word'));
    assert.ok(row.excerpt.endsWith('…'));
    assert.ok(row.excerpt.length <= 201);
  });
});
