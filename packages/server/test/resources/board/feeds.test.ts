/**
 * The board's RSS 2.0 and Atom feeds (resources/board/feeds.ts) over real data: changelog entries
 * written through the management API and ideas through the public API, read back with the board's
 * read models and the feed builders, then parsed by a real feed parser (and checked well-formed by
 * a strict XML validator): titles, links, dates, escaping, and never an internal or held idea.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseFeed } from '@rowanmanning/feed-parser';
import { XMLValidator } from 'fast-xml-parser';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { managedProject, type ManagedProject } from '../../support/manage-fixtures.ts';
import { listBoardChangelog } from '../../../src/resources/changelog/index.ts';
import { listBoardIdeas } from '../../../src/resources/features/index.ts';
import { changelogFeed, ideasFeed, type BoardFeedInfo, type FeedFormat } from '../../../src/resources/board/feeds.ts';

const FORMATS: FeedFormat[] = ['rss', 'atom'];

describe('board: feeds', () => {
  let server: TestServer;
  let p: ManagedProject;
  let board: (format: FeedFormat) => BoardFeedInfo;
  const ids: Record<string, string> = {};

  const parsed = (xml: string) => {
    const valid = XMLValidator.validate(xml);
    assert.equal(valid, true, JSON.stringify(valid));
    return parseFeed(xml);
  };
  const entry = async (body: Record<string, unknown>) => {
    const created = await p.admin.post(`/projects/${p.projectId}/changelog`, { published: true, ...body });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    return created.body.id as string;
  };
  const changelog = async (format: FeedFormat) =>
    changelogFeed(board(format), (await listBoardChangelog(server.db, p.projectId, 50, 0)).entries, format);
  const ideas = async (format: FeedFormat) =>
    ideasFeed(
      board(format),
      (await listBoardIdeas(server.db, p.projectId, { sort: 'new', limit: 50, offset: 0 })).rows,
      format,
    );

  before(async () => {
    server = await startTestServer();
    p = await managedProject(server);
    board = (format) => ({
      title: 'Acme <Board> & "friends"',
      url: `https://boards.example.test/b/${p.projectId}`,
      feedUrl: `https://boards.example.test/b/${p.projectId}/changelog.${format === 'rss' ? 'rss' : 'atom'}`,
      language: 'en',
    });
    const idea = async (title: string, extra: Record<string, unknown> = {}) => {
      const created = await p.live.post('/features', {
        title,
        description: `Description of ${title}, long enough to pass.`,
        ...extra,
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      return created.body.id as string;
    };
    ids['shipped'] = await idea('Dark mode <b>now</b> & "more"');
    ids['internal'] = await idea('Secret internal idea', { internal: true });
    ids['held'] = await idea('Held idea awaiting moderation');
    await server.db.run('UPDATE features SET held = 1 WHERE id = ?', [ids['held']]);
    ids['test'] = (
      await p.test.post('/features', { title: 'Test key idea', description: 'Written with the test key.' })
    ).body.id;
    ids['script'] = await idea('<script>alert(1)</script> ]]> ]]> broken CDATA', {
      description: 'Text with <img src=x onerror=alert(1)> and ]]> inside.',
    });
    await server.db.run('UPDATE features SET created_at = ? WHERE id = ?', [
      '2026-01-02T03:04:05.000Z',
      ids['shipped'],
    ]);
    const done = await p.admin.patch(`/projects/${p.projectId}/features/${ids['shipped']}`, { status: 'done' });
    assert.equal(done.status, 200);

    ids['entryOld'] = await entry({ summary: 'Standalone fix', statusKey: 'fixed', description: '<p>Old</p>' });
    await server.db.run('UPDATE changelog_entries SET published_at = ? WHERE id = ?', [
      '2026-03-01T10:00:00.000Z',
      ids['entryOld'],
    ]);
    ids['entryShipped'] = await entry({
      summary: 'Dark mode shipped <i>today</i>',
      featureId: ids['shipped'],
      description: '<p>It is <strong>here</strong>.</p><script>alert(1)</script>',
    });
    await server.db.run('UPDATE changelog_entries SET published_at = ? WHERE id = ?', [
      '2026-04-01T10:00:00.000Z',
      ids['entryShipped'],
    ]);
    ids['entryInternal'] = await entry({ summary: 'Secret shipped', featureId: ids['internal'] });
    ids['entryHeld'] = await entry({ summary: 'Held shipped', featureId: ids['held'] });
    ids['draft'] = await entry({ summary: 'A draft', published: false });
    // Linked to a test-environment idea: the entry shows, the idea does not.
    ids['entryTest'] = await entry({ summary: 'Tested shipped', featureId: ids['test'] });
    await server.db.run('UPDATE changelog_entries SET published_at = ? WHERE id = ?', [
      '2026-02-01T10:00:00.000Z',
      ids['entryTest'],
    ]);
  });
  after(() => server.close());

  for (const format of FORMATS) {
    it(`changelog (${format}): published public entries, newest first, with the idea each shipped`, async () => {
      const xml = await changelog(format);
      const feed = parsed(xml);
      assert.equal(feed.meta.type, format);
      assert.equal(feed.title, 'Acme <Board> & "friends": changelog');
      assert.equal(feed.url, `${board(format).url}/changelog`);
      if (format === 'rss') assert.equal(feed.language, 'en');
      assert.deepEqual(
        feed.items.map((item) => item.title),
        ['Dark mode shipped <i>today</i>', 'Standalone fix', 'Tested shipped'],
      );
      const [shipped, standalone, tested] = feed.items;
      assert.equal(shipped!.url, `${board(format).url}/changelog/${ids['entryShipped']}`);
      assert.equal(shipped!.id, `${board(format).url}/changelog#${ids['entryShipped']}`);
      assert.equal(new Date(shipped!.published ?? shipped!.updated!).toISOString(), '2026-04-01T10:00:00.000Z');
      assert.equal(new Date(standalone!.published ?? standalone!.updated!).toISOString(), '2026-03-01T10:00:00.000Z');
      const html = shipped!.content ?? shipped!.description ?? '';
      assert.match(html, /<strong>here<\/strong>/);
      assert.doesNotMatch(html, /<script/);
      assert.ok(html.includes(`href="${board(format).url}/ideas/${ids['shipped']}"`), html);
      // The idea's title is text inside the HTML: escaped in the document, plain again once parsed.
      assert.ok(xml.includes('Dark mode &lt;b&gt;now&lt;/b&gt; &amp; &quot;more&quot;'));
      assert.ok(html.includes('Dark mode <b>now</b> & "more"'), html);
      assert.match(html, /<p>Done: <a /);
      assert.doesNotMatch(tested!.content ?? tested!.description ?? '', /ideas\//);
      assert.deepEqual(
        standalone!.categories.map((c) => c.label ?? c.term),
        ['Fixed'],
      );
      for (const hidden of ['Secret', 'Held', 'A draft', ids['internal'], ids['held'], ids['test']]) {
        assert.ok(!xml.includes(hidden!), `${hidden} in the ${format} changelog feed`);
      }
    });

    it(`ideas (${format}): newest public ideas, escaped, none internal, held or from test keys`, async () => {
      const xml = await ideas(format);
      const feed = parsed(xml);
      assert.equal(feed.title, 'Acme <Board> & "friends": new ideas');
      assert.deepEqual(
        feed.items.map((item) => item.title),
        ['<script>alert(1)</script> ]]> ]]> broken CDATA', 'Dark mode <b>now</b> & "more"'],
      );
      const [script, dark] = feed.items;
      assert.equal(dark!.url, `${board(format).url}/ideas/${ids['shipped']}`);
      assert.equal(new Date(dark!.published ?? dark!.updated!).toISOString(), '2026-01-02T03:04:05.000Z');
      const html = script!.content ?? script!.description ?? '';
      // User text is escaped in the document (never markup), plain text again once parsed.
      assert.ok(xml.includes('&lt;img src=x onerror=alert(1)&gt;'));
      assert.ok(html.includes('Text with <img src=x onerror=alert(1)> and ]]> inside.'), html);
      assert.doesNotMatch(xml, /<img|<script/);
      for (const hidden of ['Secret internal', 'Held idea', 'Test key idea']) {
        assert.ok(!xml.includes(hidden), `${hidden} in the ${format} ideas feed`);
      }
    });
  }

  it('stays well-formed with control characters and an empty list', async () => {
    const info = { ...board('rss'), title: 'Bell \u0007 board' };
    for (const format of FORMATS) {
      const empty = parsed(changelogFeed(info, [], format));
      assert.equal(empty.items.length, 0);
      const odd = parsed(
        ideasFeed(
          info,
          [
            {
              id: 'feat_x',
              title: 'Tab\there, bell \u0007, lone \uD800 surrogate',
              excerpt: 'Form feed \u000C',
              status: 'open',
              type: 'feature',
              voteCount: 1,
              commentCount: 0,
              createdAt: '2026-05-01T00:00:00.000Z',
              tags: [{ id: 'tag_1', name: 'UI & UX', color: null }],
              releasedIn: null,
            },
          ],
          format,
        ),
      );
      assert.equal(odd.title, 'Bell  board: new ideas');
      assert.equal(odd.items[0]!.title, 'Tab\there, bell , lone  surrogate');
      assert.ok(odd.items[0]!.categories.some((c) => (c.label ?? c.term) === 'UI & UX'));
    }
  });
});
