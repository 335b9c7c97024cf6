/**
 * Importers (issue 36) through the management API, on the vendors' export shapes in
 * test/fixtures/imports: each format's dry run stores nothing and reports what a run then does;
 * a second run changes nothing; a malformed file is refused naming its row and column, with
 * nothing stored; imported history (even a status change on an idea with a follower) queues no
 * e-mail; members may not import.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { managedProject } from '../../support/manage-fixtures.ts';
import { createFollower } from '../../support/followers.ts';
import { importFixture, importHoldings, uploadRaw, zipFixtures } from '../../support/imports.ts';

describe('imports', () => {
  let server: TestServer;

  before(async () => {
    server = await startTestServer();
  });
  after(async () => server?.close());

  /** What a project holds, to prove a dry run or a refused file stored nothing. */
  const holdings = (projectId: string) => importHoldings(server, projectId);

  async function featureBySource(projectId: string, title: string) {
    return (await server.db.get<Record<string, any>>('SELECT * FROM features WHERE project_id = ? AND title = ?', [
      projectId,
      title,
    ]))!;
  }

  it('imports a Canny API dump: dry run, run, second run; no e-mail even for a followed idea', async () => {
    const project = await managedProject(server);
    const { projectId } = project;
    const empty = await holdings(projectId);
    const dry = await uploadRaw(project, importFixture('canny/dump.json'), { source: 'canny', dryRun: true });
    assert.equal(dry.status, 200, dry.text);
    assert.deepEqual(dry.body.ideas, { created: 3, updated: 0, unchanged: 0, skipped: 0, truncated: 0 });
    assert.deepEqual(dry.body.votes, { created: 3, unchanged: 0, skipped: 1 });
    assert.deepEqual(dry.body.comments, { created: 2, updated: 0, unchanged: 0, skipped: 0 });
    assert.deepEqual(dry.body.people, { created: 3, matched: 0 });
    assert.deepEqual(dry.body.skipped, [
      { file: 'upload.json', row: 4, kind: 'vote', id: 'p9', reason: 'its idea p9 is not in the export' },
    ]);
    assert.deepEqual(
      dry.body.statuses.map((s: any) => [s.from, s.to, s.by]),
      [
        ['complete', 'done', 'default'],
        ['planned', 'planned', 'default'],
        ['under review', 'in-review', 'default'],
      ],
    );
    assert.deepEqual(await holdings(projectId), empty, 'a dry run stores nothing');

    const run = await uploadRaw(project, importFixture('canny/dump.json'), { source: 'canny' });
    assert.equal(run.status, 200, run.text);
    assert.deepEqual({ ...run.body, dryRun: true }, dry.body, 'the run did what the dry run said');
    const dark = await featureBySource(projectId, 'Dark mode for the dashboard');
    assert.equal(dark.status, 'planned');
    assert.equal(dark.created_at, '2023-04-01T12:00:00.000Z');
    assert.equal(dark.contact_email, 'ada@example.com');
    assert.equal(Number(dark.vote_count), 2);
    assert.equal(Number(dark.comment_count), 1, 'the internal note is not counted');
    const comments = await server.db.all<Record<string, any>>(
      'SELECT body, author_name, internal, created_at FROM comments WHERE feature_id = ? ORDER BY created_at',
      [dark.id],
    );
    assert.deepEqual(
      comments.map((c) => [c.body, c.author_name, Number(c.internal), c.created_at]),
      [
        ['Yes please, my eyes!', 'Grace Hopper', 0, '2023-04-02T11:00:00.000Z'],
        ['Check with design first.', 'Ada Lovelace', 1, '2023-04-04T11:00:00.000Z'],
      ],
    );
    // The voters are people of the project, by name, through the management API.
    const votes = await project.member.get(`/projects/${projectId}/features/${dark.id}/votes`);
    assert.equal(votes.status, 200, votes.text);
    assert.deepEqual(votes.body.votes.map((v: any) => v.person?.name).sort(), ['Grace Hopper', 'Linus']);

    const afterRun = await holdings(projectId);
    const again = await uploadRaw(project, importFixture('canny/dump.json'), { source: 'canny' });
    assert.equal(again.status, 200, again.text);
    assert.deepEqual(again.body.ideas, { created: 0, updated: 0, unchanged: 3, skipped: 0, truncated: 0 });
    assert.deepEqual(again.body.votes, { created: 0, unchanged: 3, skipped: 1 });
    assert.deepEqual(again.body.comments, { created: 0, updated: 0, unchanged: 2, skipped: 0 });
    assert.deepEqual(again.body.people, { created: 0, matched: 3 });
    assert.deepEqual(await holdings(projectId), afterRun, 'a second run changes nothing');
    // Each run is in the audit log with its counts; the dry run is not.
    const audit = await project.admin.get(`/projects/${projectId}/audit?action=import.completed`);
    assert.equal(audit.status, 200, audit.text);
    assert.equal(audit.body.entries.length, 2);
    assert.equal(audit.body.entries[0].target.id, 'canny');

    // Someone follows an imported idea; a re-import that moves its status tells nobody.
    await createFollower(server.db, projectId, [dark.id]);
    const moved = await uploadRaw(project, importFixture('canny/dump.json'), {
      source: 'canny',
      map: 'planned=in-progress',
    });
    assert.equal(moved.status, 200, moved.text);
    assert.equal(moved.body.ideas.updated, 1);
    assert.equal((await featureBySource(projectId, 'Dark mode for the dashboard')).status, 'in-progress');
    assert.equal((await holdings(projectId)).outbox, 0, 'no follower e-mail for imported history');
  });

  it('imports a Canny dump whose parts come in another order (votes and comments before posts)', async () => {
    const project = await managedProject(server);
    const dump = JSON.parse(importFixture('canny/dump.json').toString('utf8'));
    const reordered = JSON.stringify({
      comments: dump.comments,
      votes: dump.votes,
      posts: dump.posts,
      users: dump.users,
    });
    const res = await uploadRaw(project, new TextEncoder().encode(reordered), { source: 'canny' });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.votes, { created: 3, unchanged: 0, skipped: 1 });
    assert.deepEqual(res.body.comments, { created: 2, updated: 0, unchanged: 0, skipped: 0 });
    assert.deepEqual(res.body.people, { created: 3, matched: 0 });
  });

  it('refuses a malformed Canny dump naming row and column, and stores nothing', async () => {
    const project = await managedProject(server);
    const before = await holdings(project.projectId);
    const res = await uploadRaw(project, importFixture('canny/bad-dump.json'), {
      source: 'canny',
      filename: 'bad-dump.json',
    });
    assert.equal(res.status, 400, res.text);
    assert.equal(res.body.code, 'BadRequest');
    assert.match(res.body.error, /bad-dump\.json row 2, column "created": "not a date" is not a date/);
    assert.deepEqual(res.body.details, [{ field: 'bad-dump.json:2:created', message: '"not a date" is not a date' }]);
    assert.deepEqual(await holdings(project.projectId), before);
    const notJson = await uploadRaw(project, new TextEncoder().encode('{"posts": ['), { source: 'canny' });
    assert.equal(notJson.status, 400);
    assert.match(notJson.body.error, /upload\.json: is not valid JSON/);
  });

  it('imports Canny boards as tags and its changelog entries (published, draft, scheduled), a second run changes nothing', async () => {
    const project = await managedProject(server);
    const { projectId } = project;
    // The team has a tag named like one of the boards already: it is used, not duplicated.
    const bugs = await project.admin.post(`/projects/${projectId}/tags`, { name: 'Bug Reports', color: '#ff0000' });
    assert.equal(bugs.status, 201, bugs.text);
    const dump = zipFixtures('canny/with-changelog');
    const empty = await holdings(projectId);
    const dry = await uploadRaw(project, dump, { source: 'canny', dryRun: true, filename: 'canny.zip' });
    assert.equal(dry.status, 200, dry.text);
    assert.deepEqual(dry.body.tags, { created: 2, matched: 1 });
    assert.deepEqual(dry.body.changelog, { created: 4, updated: 0, unchanged: 0 });
    assert.deepEqual(dry.body.ideas, { created: 3, updated: 0, unchanged: 0, skipped: 0, truncated: 0 });
    assert.deepEqual(dry.body.skipped, [
      {
        file: 'backup/entries.json',
        row: 2,
        kind: 'entry',
        id: 'e2',
        reason: 'its link to idea p9 is left out: the idea is not imported',
      },
    ]);
    assert.deepEqual(await holdings(projectId), empty, 'a dry run stores nothing');

    const run = await uploadRaw(project, dump, { source: 'canny', filename: 'canny.zip' });
    assert.equal(run.status, 200, run.text);
    assert.deepEqual({ ...run.body, dryRun: true }, dry.body, 'the run did what the dry run said');

    // Boards are tags; each idea carries its board's.
    const tags = await project.member.get(`/projects/${projectId}/tags`);
    assert.equal(tags.status, 200, tags.text);
    assert.deepEqual(
      tags.body.tags.map((tag: any) => [tag.name, tag.color]),
      [
        ['Bug Reports', '#ff0000'],
        ['Feature Requests', null],
        ['Integrations', null],
      ],
    );
    const dark = await featureBySource(projectId, 'Dark mode for the dashboard');
    const safari = await featureBySource(projectId, 'Login page freezes on Safari');
    const csv = await featureBySource(projectId, 'Export ideas to CSV');
    const tagsOf = async (featureId: string) =>
      (await project.member.get(`/projects/${projectId}/features/${featureId}`)).body.tags.map((t: any) => t.name);
    assert.deepEqual(await tagsOf(dark.id), ['Feature Requests']);
    assert.deepEqual(await tagsOf(safari.id), ['Bug Reports']);

    // Entries keep their state, dates and linked ideas, through the management API.
    const list = await project.member.get(`/projects/${projectId}/changelog`);
    assert.equal(list.status, 200, list.text);
    const bySummary = new Map<string, any>(list.body.entries.map((entry: any) => [entry.summary, entry]));
    const dark1 = bySummary.get('Dark mode');
    assert.equal(dark1.state, 'published');
    assert.equal(dark1.createdAt, '2023-06-30T15:00:00.000Z');
    assert.equal(dark1.publishedAt, '2023-07-01T09:00:00.000Z');
    assert.deepEqual(dark1.featureIds, [dark.id]);
    assert.equal(dark1.statusKey, 'done', 'a linked entry shows its idea status');
    assert.match(
      dark1.description,
      /^<p>Dark mode is here\.<\/p><p>Turn it on in &lt;Settings&gt; &amp; enjoy\.<\/p>$/,
    );
    const fixes = bySummary.get('Safari fixes');
    assert.equal(fixes.state, 'published');
    assert.deepEqual(fixes.featureIds, [safari.id]);
    const draft = bySummary.get('CSV export');
    assert.equal(draft.state, 'draft');
    assert.equal(draft.publishedAt, null);
    assert.deepEqual(draft.featureIds, [csv.id]);
    assert.equal(draft.description, '<p>CSV export, still being written.</p>', 'plain text when Markdown is empty');
    const scheduled = bySummary.get('Roadmap for 2099');
    assert.equal(scheduled.state, 'scheduled');
    assert.equal(scheduled.publishAt, '2099-01-01T09:00:00.000Z');
    assert.equal(scheduled.statusKey, 'new');
    assert.equal(scheduled.featureId, null);
    // The public changelog shows the published ones only.
    const afterRun = await holdings(projectId);
    assert.equal(afterRun.outbox, 0, 'imported entries announce nothing');

    const again = await uploadRaw(project, dump, { source: 'canny', filename: 'canny.zip' });
    assert.equal(again.status, 200, again.text);
    assert.deepEqual(again.body.tags, { created: 0, matched: 3 });
    assert.deepEqual(again.body.changelog, { created: 0, updated: 0, unchanged: 4 });
    assert.deepEqual(again.body.ideas, { created: 0, updated: 0, unchanged: 3, skipped: 0, truncated: 0 });
    assert.deepEqual(await holdings(projectId), afterRun, 'a second run changes nothing');

    // An entry edited here is brought back to the source's text by the next run, not duplicated.
    const edit = await project.admin.patch(`/projects/${projectId}/changelog/${dark1.id}`, { summary: 'Renamed here' });
    assert.equal(edit.status, 200, edit.text);
    const third = await uploadRaw(project, dump, { source: 'canny', filename: 'canny.zip' });
    assert.deepEqual(third.body.changelog, { created: 0, updated: 1, unchanged: 3 });
    const entry = await project.member.get(`/projects/${projectId}/changelog/${dark1.id}`);
    assert.equal(entry.body.summary, 'Dark mode');
    assert.deepEqual(await holdings(projectId), afterRun);
  });

  it('refuses a Canny dump with a malformed changelog entry, naming row and field, and stores nothing', async () => {
    const project = await managedProject(server);
    const before = await holdings(project.projectId);
    const res = await uploadRaw(project, importFixture('canny/bad-changelog.json'), {
      source: 'canny',
      filename: 'bad-changelog.json',
    });
    assert.equal(res.status, 400, res.text);
    assert.match(res.body.error, /bad-changelog\.json row 2, column "posts\[0\]\.id": is missing/);
    assert.deepEqual(res.body.details, [{ field: 'bad-changelog.json:2:posts[0].id', message: 'is missing' }]);
    assert.deepEqual(await holdings(project.projectId), before, 'no idea, tag or entry of the file is stored');
    const badStatus = JSON.parse(importFixture('canny/bad-changelog.json').toString('utf8'));
    badStatus.entries[1] = { ...badStatus.entries[0], id: 'e2', status: 'archived' };
    const res2 = await uploadRaw(project, new TextEncoder().encode(JSON.stringify(badStatus)), { source: 'canny' });
    assert.equal(res2.status, 400, res2.text);
    assert.match(
      res2.body.error,
      /upload\.json row 2, column "status": "archived" is not one of draft, scheduled, published/,
    );
    assert.deepEqual(await holdings(project.projectId), before);
  });

  it('imports a Canny posts CSV with its voters, matching people already known by e-mail', async () => {
    const project = await managedProject(server);
    // Ada is already a person of the project (she left her address on an idea).
    const known = await project.live.post('/features', {
      title: 'An idea from the widget',
      description: 'Submitted before the move.',
      contactEmail: 'Ada@Example.com',
    });
    assert.equal(known.status, 201, known.text);
    const res = await uploadRaw(project, importFixture('canny/posts.csv'), { source: 'canny-csv' });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.ideas, { created: 2, updated: 0, unchanged: 0, skipped: 0, truncated: 0 });
    assert.deepEqual(res.body.votes, { created: 3, unchanged: 0, skipped: 0 });
    assert.deepEqual(res.body.people, { created: 2, matched: 1 });
    const csv = await featureBySource(project.projectId, 'Export ideas to CSV');
    assert.equal(csv.status, 'in-progress');
    assert.equal(csv.created_at, '2023-05-02T08:30:00.000Z');
    const again = await uploadRaw(project, importFixture('canny/posts.csv'), { source: 'canny-csv' });
    assert.equal(again.body.ideas.unchanged, 2);
    assert.equal(again.body.votes.unchanged, 3);
  });

  it('imports a UserVoice export (suggestions and comments, zipped) with a status table override', async () => {
    const project = await managedProject(server);
    const zip = zipFixtures('uservoice', ['suggestions.csv', 'comments.csv']);
    const query = { source: 'uservoice', map: 'duplicate=skip,needs triage=new' };
    const dry = await uploadRaw(project, zip, { ...query, dryRun: true });
    assert.equal(dry.status, 200, dry.text);
    assert.deepEqual(dry.body.ideas, { created: 2, updated: 0, unchanged: 0, skipped: 1, truncated: 0 });
    assert.deepEqual(dry.body.votes, { created: 3, unchanged: 0, skipped: 0 });
    assert.deepEqual(dry.body.comments, { created: 2, updated: 0, unchanged: 0, skipped: 0 });
    assert.deepEqual(
      dry.body.statuses.map((s: any) => [s.from, s.to, s.by]),
      [
        ['duplicate', 'skip', 'map'],
        ['Needs Triage', 'new', 'map'],
        ['started', 'in-progress', 'default'],
      ],
    );
    assert.equal(dry.body.skipped[0].reason, 'status "duplicate" is mapped to skip');
    const run = await uploadRaw(project, zip, query);
    assert.deepEqual({ ...run.body, dryRun: true }, dry.body);
    const sso = await featureBySource(project.projectId, 'Single sign-on with Okta');
    assert.equal(Number(sso.vote_count), 2);
    assert.equal(Number(sso.comment_count), 1);
    assert.equal(sso.created_at, '2022-11-01T09:00:00.000Z');
    const again = await uploadRaw(project, zip, query);
    assert.deepEqual(again.body.ideas, { created: 0, updated: 0, unchanged: 2, skipped: 1, truncated: 0 });
    assert.equal(again.body.comments.unchanged, 2);
  });

  it('refuses a UserVoice CSV with an empty title, naming the row', async () => {
    const project = await managedProject(server);
    const res = await uploadRaw(project, importFixture('uservoice/bad.csv'), {
      source: 'uservoice',
      filename: 'bad.csv',
    });
    assert.equal(res.status, 400, res.text);
    assert.equal(res.body.error, 'bad.csv row 3, column "ideaTitle": is missing or empty');
    assert.equal((await holdings(project.projectId)).features, 0);
    const ragged = await uploadRaw(project, new TextEncoder().encode('ideaId,ideaTitle\n1,"unclosed\n'), {
      source: 'uservoice',
    });
    assert.equal(ragged.status, 400, ragged.text);
    assert.match(ragged.body.error, /^upload\.csv row 2, column "\(row\)"/);
  });

  it('imports a Featurebase export; an unknown status becomes open and is reported', async () => {
    const project = await managedProject(server);
    const res = await uploadRaw(project, importFixture('featurebase/posts.json'), { source: 'featurebase' });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.ideas.created, 2);
    assert.deepEqual(
      res.body.statuses.map((s: any) => [s.from, s.to, s.by]),
      [
        ['In Progress', 'in-progress', 'default'],
        ['Shelved', 'open', 'fallback'],
      ],
    );
    const zapier = await featureBySource(project.projectId, 'Zapier integration');
    assert.equal(zapier.contact_email, 'marie@example.org');
    assert.equal(JSON.parse(zapier.metadata).board, 'Integrations');
  });

  it('imports a Fider backup zip: users by id, deleted posts skipped with their votes', async () => {
    const project = await managedProject(server);
    const zip = zipFixtures('fider');
    const res = await uploadRaw(project, zip, { source: 'fider' });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.ideas, { created: 2, updated: 0, unchanged: 0, skipped: 1, truncated: 0 });
    assert.deepEqual(res.body.votes, { created: 3, unchanged: 0, skipped: 1 });
    assert.deepEqual(res.body.people, { created: 2, matched: 0 });
    const markdown = await featureBySource(project.projectId, 'Markdown in comments');
    assert.equal(markdown.status, 'in-progress');
    assert.equal(markdown.contact_email, 'kim@fider.example');
    const comment = await server.db.get<{ author_name: string }>(
      'SELECT author_name FROM comments WHERE feature_id = ?',
      [markdown.id],
    );
    assert.equal(comment?.author_name, 'Jon Admin');
    const again = await uploadRaw(project, zip, { source: 'fider' });
    assert.deepEqual(again.body.votes, { created: 0, unchanged: 3, skipped: 1 });
    assert.equal(again.body.ideas.unchanged, 2);
    const broken = await uploadRaw(project, zip.slice(0, 40), { source: 'fider' });
    assert.equal(broken.status, 400, broken.text);
  });

  it('imports a generic CSV through a column mapping; a bad value names row and column', async () => {
    const project = await managedProject(server);
    const columns =
      'id=Ticket,title=Summary,description=Body,status=State,type=Kind,authorEmail=Reporter,createdAt=Opened,voters=Supporters';
    const query = { source: 'csv', columns, map: 'backlog=open,fixed=done', filename: 'ideas.csv' };
    const res = await uploadRaw(project, importFixture('csv/ideas.csv'), query);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.ideas, { created: 2, updated: 0, unchanged: 0, skipped: 0, truncated: 0 });
    assert.deepEqual(res.body.votes, { created: 2, unchanged: 0, skipped: 0 });
    const crash = await featureBySource(project.projectId, 'Crash on upload');
    assert.equal(crash.type, 'bug');
    assert.equal(crash.status, 'done');
    assert.equal(crash.created_at, '2020-02-03T00:00:00.000Z');

    const bad = await uploadRaw(project, importFixture('csv/bad-type.csv'), { ...query, filename: 'bad-type.csv' });
    assert.equal(bad.status, 400, bad.text);
    assert.equal(bad.body.error, 'bad-type.csv row 4, column "Kind": "incident" is not feature or bug');
    const unmapped = await uploadRaw(project, importFixture('csv/ideas.csv'), {
      source: 'csv',
      columns: 'title=Headline',
    });
    assert.equal(unmapped.status, 400);
    assert.match(unmapped.body.error, /column "Headline": the mapping names this column for title/);
    const badMap = await uploadRaw(project, importFixture('csv/ideas.csv'), { source: 'csv', map: 'backlog=someday' });
    assert.equal(badMap.status, 400);
    assert.equal(badMap.body.details[0].field, 'map');
    assert.equal((await holdings(project.projectId)).features, 2, 'the refused files added nothing');
    // Text the databases cannot store as is: U+0000 dropped, a lone surrogate made well formed.
    const odd = await uploadRaw(
      project,
      new TextEncoder().encode('title,description\nNull\u0000 byte idea,Lone \ud800 half\n'),
      {
        source: 'csv',
      },
    );
    assert.equal(odd.status, 200, odd.text);
    assert.equal((await featureBySource(project.projectId, 'Null byte idea')).description, 'Lone \ufffd half');
  });

  it('lets only admins import; an empty body is a 400', async () => {
    const project = await managedProject(server);
    const res = await uploadRaw(project, importFixture('csv/ideas.csv'), { source: 'canny-csv' }, 'member');
    assert.equal(res.status, 403, res.text);
    const outsider = await project.outsider.post(`/projects/${project.projectId}/imports`, undefined, {
      rawBody: 'Title\nx\n',
      query: { source: 'csv' },
      headers: { 'content-type': 'text/csv' },
    });
    assert.equal(outsider.status, 404);
    const empty = await uploadRaw(project, new Uint8Array(0), { source: 'csv' });
    assert.equal(empty.status, 400, empty.text);
    assert.equal((await holdings(project.projectId)).features, 0);
  });
});
