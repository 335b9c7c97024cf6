import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { managedProjectSuite, managedProject } from '../../support/manage-fixtures.ts';

describe('management: changelog', () => {
  const p = managedProjectSuite();

  const path = (rest = '') => `/projects/${p.projectId}/changelog${rest}`;

  it('creates a standalone draft, publishes it into the public changelog and unpublishes it', async () => {
    const created = await p.admin.post(path(), {
      summary: 'Faster search',
      description: '<p>Search is <strong>2x</strong> faster.</p>',
      statusKey: 'improved',
    });
    assert.equal(created.status, 201);
    assert.equal(created.body.published, false);
    assert.equal(created.body.publishedAt, null);
    assert.equal(created.body.featureId, null);
    assert.equal(created.body.statusKey, 'improved');
    assert.equal(created.body.statusLabel, 'Improved');
    assert.equal(created.body.featureTitle, '');
    const id = created.body.id;

    const drafts = await p.live.get('/changelog', { query: { published: false } });
    assert.deepEqual(
      drafts.body.entries.map((e: any) => e.id),
      [id],
    );
    assert.deepEqual((await p.live.get('/changelog')).body.entries, []);

    const before = Date.now();
    const published = await p.admin.post(path(`/${id}/publish`));
    assert.equal(published.status, 200);
    assert.equal(published.body.published, true);
    assert.ok(Date.parse(published.body.publishedAt) >= before - 1000);
    const publicLog = await p.live.get('/changelog');
    assert.equal(publicLog.body.entries.length, 1);
    const entry = publicLog.body.entries[0];
    assert.equal(entry.summary, 'Faster search');
    assert.equal(entry.statusKey, 'improved');
    assert.equal(entry.statusLabel, 'Improved');
    assert.equal(entry.description, '<p>Search is <strong>2x</strong> faster.</p>');
    assert.equal(entry.featureId, undefined);
    // The test key sees the same changelog: project configuration is shared.
    assert.equal((await p.test.get('/changelog')).body.entries.length, 1);

    const republished = await p.admin.post(path(`/${id}/publish`));
    assert.equal(republished.body.publishedAt, published.body.publishedAt);

    const unpublished = await p.admin.post(path(`/${id}/unpublish`));
    assert.equal(unpublished.body.published, false);
    assert.equal(unpublished.body.publishedAt, null);
    assert.deepEqual((await p.live.get('/changelog')).body.entries, []);
  });

  it('links an entry to a feature, whose title, type and status show live', async () => {
    const feature = (
      await p.live.post('/features', { title: 'Dark mode', description: 'A dark theme for the whole app.' })
    ).body;
    const created = await p.admin.post(path(), {
      summary: 'Dark mode is here',
      featureId: feature.id,
      published: true,
    });
    assert.equal(created.status, 201);
    assert.equal(created.body.featureId, feature.id);
    assert.deepEqual(created.body.featureIds, [feature.id]);
    assert.equal(created.body.featureTitle, 'Dark mode');
    // Published: the linked idea shipped (the board's shipOnPublish, on by default).
    assert.equal(created.body.statusKey, 'done');
    assert.ok(created.body.publishedAt);
    await p.admin.patch(`/projects/${p.projectId}/features/${feature.id}`, { status: 'in-progress' });
    const shown = (await p.live.get('/changelog')).body.entries.find((e: any) => e.id === created.body.id);
    assert.equal(shown.featureId, feature.id);
    assert.equal(shown.featureTitle, 'Dark mode');
    assert.equal(shown.featureType, 'feature');
    assert.equal(shown.statusKey, 'in-progress');
    assert.equal(shown.statusLabel, 'In progress');

    // Internal feature: the team still sees the entry; the public changelog leaves it out.
    await p.admin.patch(`/projects/${p.projectId}/features/${feature.id}`, { internal: true });
    const managed = await p.member.get(path(`/${created.body.id}`));
    assert.equal(managed.body.featureInternal, true);
    assert.equal(
      (await p.live.get('/changelog')).body.entries.some((e: any) => e.id === created.body.id),
      false,
    );

    // Unlinking makes it standalone with the author's status.
    const unlinked = await p.admin.patch(path(`/${created.body.id}`), { featureId: null, statusKey: 'new' });
    assert.equal(unlinked.body.featureId, null);
    assert.equal(unlinked.body.statusKey, 'new');
    assert.equal(unlinked.body.statusLabel, 'New');
    assert.ok((await p.live.get('/changelog')).body.entries.some((e: any) => e.id === created.body.id));

    const other = await managedProject(p.server);
    const foreign = (
      await other.live.post('/features', { title: 'Not yours', description: 'Belongs to another project.' })
    ).body;
    const bad = await p.admin.post(path(), { summary: 'Sneaky', featureId: foreign.id });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.details[0].field, 'featureId');
  });

  it('sanitises HTML descriptions on create and edit', async () => {
    const dirty =
      '<p onclick="steal()">Hello <script>alert(1)</script><a href="javascript:alert(1)">x</a> ' +
      '<a href="https://example.com" target="_blank">docs</a><img src="https://example.com/a.png" onerror="alert(1)"></p>' +
      '<iframe src="https://evil.example"></iframe><style>body{}</style>';
    const created = await p.admin.post(path(), { summary: 'HTML', description: dirty });
    const html = created.body.description as string;
    assert.doesNotMatch(html, /script|onclick|onerror|javascript:|iframe|style/i);
    assert.match(html, /<a href="https:\/\/example.com" target="_blank" rel="noopener noreferrer">docs<\/a>/);
    assert.match(html, /<img src="https:\/\/example.com\/a.png" \/>/);
    const edited = await p.admin.patch(path(`/${created.body.id}`), {
      description: '<b>ok</b><svg onload="x()"></svg>',
    });
    assert.equal(edited.body.description, '<b>ok</b>');
  });

  it('lists drafts and published entries, filters, validates and deletes', async () => {
    const list = await p.member.get(path());
    assert.equal(list.status, 200);
    assert.equal(list.body.total, list.body.entries.length);
    const drafts = await p.member.get(path(), { query: { published: false } });
    assert.ok(drafts.body.entries.every((e: any) => !e.published));
    const found = await p.member.get(path(), { query: { q: 'dark' } });
    assert.ok(found.body.entries.length >= 1);

    assert.equal((await p.admin.post(path(), { summary: '' })).status, 400);
    assert.equal((await p.admin.post(path(), { summary: 'x', statusKey: 'shipped' })).status, 400);
    assert.equal((await p.admin.patch(path(`/${list.body.entries[0].id}`), {})).status, 400);
    assert.equal((await p.member.post(path(), { summary: 'Members only read' })).status, 403);

    const doomed = (await p.admin.post(path(), { summary: 'Temporary', published: true })).body;
    assert.equal((await p.member.delete(path(`/${doomed.id}`))).status, 403);
    assert.equal((await p.admin.delete(path(`/${doomed.id}`))).status, 204);
    assert.equal((await p.member.get(path(`/${doomed.id}`))).status, 404);
    assert.equal((await p.admin.post(path(`/${doomed.id}/publish`))).status, 404);
    assert.equal((await p.outsider.get(path())).status, 404);
    assert.equal((await p.outsider.post(path(), { summary: 'Not mine' })).status, 404);
  });
});
