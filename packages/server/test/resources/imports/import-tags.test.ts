/**
 * Boards, categories and tags of every source become the project's tags, as the Canny dump's
 * boards do (imports.test.ts): Canny's CSV (Board, Category), UserVoice's forum, category and
 * labels, Featurebase's category and post tags (JSON `postTags`, the CSV's Tags), Fider's public
 * tags (tags.json, post_tags.json). A tag only the source's staff saw (Fider's, Featurebase's
 * private ones) is left out and said once, since tags here show on the public board. A tag the team
 * already has is used as it is (its colour kept), a new one takes the source's colour when it has
 * one; the idea's metadata keeps its board and category; a dry run reports the tags and stores
 * nothing; a second run changes nothing; a malformed tag link is refused naming row and column.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { managedProject, type ManagedProject } from '../../support/manage-fixtures.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { importFixture, importHoldings, uploadRaw, zipFixtures } from '../../support/imports.ts';

describe('imports: boards and categories as tags', () => {
  let server: TestServer;

  before(async () => {
    server = await startTestServer();
  });
  after(async () => server?.close());

  const feature = async (projectId: string, title: string) =>
    (await server.db.get<{ id: string; metadata: string }>(
      'SELECT id, metadata FROM features WHERE project_id = ? AND title = ?',
      [projectId, title],
    ))!;

  /** The idea's tag names and its metadata's board and category, through the management API. */
  async function tagsAndOrigin(project: ManagedProject, title: string) {
    const row = await feature(project.projectId, title);
    const res = await project.member.get(`/projects/${project.projectId}/features/${row.id}`);
    assert.equal(res.status, 200, res.text);
    const metadata = JSON.parse(row.metadata);
    return {
      tags: res.body.tags.map((tag: { name: string }) => tag.name).sort(),
      board: metadata.board,
      category: metadata.category,
    };
  }

  async function projectTags(project: ManagedProject) {
    const res = await project.member.get(`/projects/${project.projectId}/tags`);
    assert.equal(res.status, 200, res.text);
    return Object.fromEntries(
      res.body.tags.map((tag: { name: string; color: string | null }) => [tag.name, tag.color]),
    );
  }

  /** Dry run, run (doing what the dry run said), second run (changing nothing); the run's report. */
  async function importTwice(project: ManagedProject, body: Uint8Array, query: Record<string, string>) {
    const empty = await importHoldings(server, project.projectId);
    const dry = await uploadRaw(project, body, { ...query, dryRun: true });
    assert.equal(dry.status, 200, dry.text);
    assert.deepEqual(await importHoldings(server, project.projectId), empty, 'a dry run stores nothing');
    const run = await uploadRaw(project, body, query);
    assert.equal(run.status, 200, run.text);
    assert.deepEqual({ ...run.body, dryRun: true }, dry.body, 'the run did what the dry run said');
    const afterRun = await importHoldings(server, project.projectId);
    const again = await uploadRaw(project, body, query);
    assert.equal(again.status, 200, again.text);
    assert.deepEqual(again.body.tags, { created: 0, matched: run.body.tags.created + run.body.tags.matched });
    assert.deepEqual(await importHoldings(server, project.projectId), afterRun, 'a second run changes nothing');
    return run.body;
  }

  it("Canny's posts CSV: the Board and Category columns, an existing tag used as it is", async () => {
    const project = await managedProject(server);
    const made = await project.admin.post(`/projects/${project.projectId}/tags`, {
      name: 'Feature Requests',
      color: '#123456',
    });
    assert.equal(made.status, 201, made.text);
    const report = await importTwice(project, importFixture('canny/posts.csv'), { source: 'canny-csv' });
    assert.deepEqual(report.tags, { created: 1, matched: 1 });
    assert.deepEqual(await projectTags(project), { Appearance: null, 'Feature Requests': '#123456' });
    assert.deepEqual(await tagsAndOrigin(project, 'Dark mode for the dashboard'), {
      tags: ['Appearance', 'Feature Requests'],
      board: 'Feature Requests',
      category: 'Appearance',
    });
    assert.deepEqual(await tagsAndOrigin(project, 'Export ideas to CSV'), {
      tags: ['Feature Requests'],
      board: 'Feature Requests',
      category: undefined,
    });
  });

  it("UserVoice's forum, category and labels", async () => {
    const project = await managedProject(server);
    const zip = zipFixtures('uservoice', ['suggestions.csv', 'comments.csv']);
    const report = await importTwice(project, zip, { source: 'uservoice', map: 'duplicate=skip' });
    assert.deepEqual(report.tags, { created: 5, matched: 0 });
    assert.deepEqual(await projectTags(project), {
      Enterprise: null,
      General: null,
      Mobile: null,
      SSO: null,
      Security: null,
    });
    assert.deepEqual(await tagsAndOrigin(project, 'Single sign-on with Okta'), {
      tags: ['Enterprise', 'General', 'SSO', 'Security'],
      board: 'General',
      category: 'Security',
    });
    assert.deepEqual((await tagsAndOrigin(project, 'Mobile app')).tags, ['Enterprise', 'General', 'Mobile']);
  });

  it("Featurebase's category and post tags, from its JSON and from its CSV; a private tag left out, said once", async () => {
    const project = await managedProject(server);
    const json = await importTwice(project, importFixture('featurebase/posts.json'), { source: 'featurebase' });
    assert.deepEqual(json.tags, { created: 3, matched: 0 });
    assert.deepEqual((await tagsAndOrigin(project, 'Zapier integration')).tags, ['Enterprise', 'Integrations']);
    assert.deepEqual((await tagsAndOrigin(project, 'Custom domains')).tags, ['Board'], 'not the private tag');
    assert.deepEqual(
      json.skipped.map((item: any) => [item.file, item.row, item.kind, item.id, item.reason]),
      [
        [
          'upload.json',
          1,
          'idea',
          'fb-1',
          '"Churn risk" is a private tag there; tags here are public, so it is left out',
        ],
      ],
      'once, though two posts carry it',
    );
    const csv = await importTwice(project, importFixture('featurebase/posts.csv'), {
      source: 'featurebase',
      filename: 'posts.csv',
    });
    assert.deepEqual(csv.ideas.created, 2);
    assert.deepEqual(csv.tags, { created: 2, matched: 2 }, "Integrations and Enterprise are the JSON import's");
    assert.deepEqual(await projectTags(project), {
      Board: null,
      Design: null,
      Enterprise: '#7c3aed',
      Integrations: null,
      Slack: null,
    });
    assert.deepEqual(await tagsAndOrigin(project, 'Slack notifications'), {
      tags: ['Enterprise', 'Integrations', 'Slack'],
      board: 'Integrations',
      category: undefined,
    });
    assert.deepEqual((await tagsAndOrigin(project, 'Dark theme')).tags, ['Design']);
  });

  it('refuses a Featurebase post tag without a name, naming row and field, and stores nothing', async () => {
    const project = await managedProject(server);
    const before = await importHoldings(server, project.projectId);
    const posts = JSON.parse(importFixture('featurebase/posts.json').toString('utf8'));
    posts.results[1].postTags = [{ color: '#000000' }];
    const res = await uploadRaw(project, new TextEncoder().encode(JSON.stringify(posts)), {
      source: 'featurebase',
      filename: 'posts.json',
    });
    assert.equal(res.status, 400, res.text);
    assert.equal(res.body.error, 'posts.json row 2, column "postTags[0].name": is missing');
    posts.results[1].postTags = 'Enterprise';
    const notList = await uploadRaw(project, new TextEncoder().encode(JSON.stringify(posts)), {
      source: 'featurebase',
      filename: 'posts.json',
    });
    assert.equal(notList.status, 400, notList.text);
    assert.equal(notList.body.error, 'posts.json row 2, column "postTags": expected a list');
    assert.deepEqual(await importHoldings(server, project.projectId), before, 'nothing is stored');
  });

  it("Fider's public tags with their colours; a private tag, and links to an idea or tag not in the backup, skipped with why", async () => {
    const project = await managedProject(server);
    const made = await project.admin.post(`/projects/${project.projectId}/tags`, {
      name: 'Feature Requests',
      color: '#00ff00',
    });
    assert.equal(made.status, 201, made.text);
    const report = await importTwice(project, zipFixtures('fider'), { source: 'fider' });
    assert.deepEqual(report.tags, { created: 1, matched: 1 });
    assert.deepEqual(
      report.skipped.map((item: any) => [item.file, item.row, item.kind, item.id, item.reason]),
      [
        [
          'backup/tags.json',
          3,
          'board',
          '3',
          '"internal" is a private tag there; tags here are public, so it is left out',
        ],
        ['backup/posts.json', 2, 'idea', '12', 'status "deleted" is mapped to skip'],
        ['backup/post_tags.json', 5, 'idea-tag', '99', 'its idea 99 is not in the export'],
        ['backup/post_tags.json', 6, 'idea-tag', '13', 'its tag 7 is not in the export'],
      ],
    );
    assert.deepEqual(await projectTags(project), { Bug: '#e11d48', 'Feature Requests': '#00ff00' });
    assert.deepEqual((await tagsAndOrigin(project, 'Markdown in comments')).tags, ['Bug'], 'not the private tag');
    assert.deepEqual((await tagsAndOrigin(project, 'Email digests')).tags, ['Feature Requests']);
  });

  it('refuses a Fider tag link without its tag, naming row and column, and stores nothing', async () => {
    const project = await managedProject(server);
    const before = await importHoldings(server, project.projectId);
    const broken = JSON.parse(importFixture('fider/post_tags.json').toString('utf8'));
    delete broken[2].tag_id;
    const zip = zipFixtures('fider', ['users.json', 'posts.json', 'tags.json']);
    const { unzipSync, zipSync } = await import('fflate');
    const files = unzipSync(zip);
    files['backup/post_tags.json'] = new TextEncoder().encode(JSON.stringify(broken));
    const res = await uploadRaw(project, zipSync(files), { source: 'fider' });
    assert.equal(res.status, 400, res.text);
    assert.equal(res.body.error, 'backup/post_tags.json row 3, column "tag_id": is missing or empty');
    assert.deepEqual(await importHoldings(server, project.projectId), before, 'no idea, tag or link is stored');
  });
});
