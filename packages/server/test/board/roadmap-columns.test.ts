/**
 * The board roadmap's columns are the team's choice (statuses, order, labels; Declined hidden by
 * default); the public REST roadmap keeps the spec's columns. Bad settings are a 400 that changes
 * nothing.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.ts';
import { managedProject, type ManagedProject } from '../support/manage-fixtures.ts';

describe('board: roadmap columns', () => {
  let server: TestServer;
  let p: ManagedProject;
  before(async () => {
    server = await startTestServer();
    p = await managedProject(server);
    assert.equal((await p.admin.patch(`/projects/${p.projectId}/board`, { enabled: true })).status, 200);
    for (const [title, status] of [
      ['Planned thing', 'planned'],
      ['Declined thing', 'declined'],
      ['Done thing', 'done'],
      ['Building thing', 'in-progress'],
    ]) {
      const created = await p.live.post('/features', { title, description: `${title}, described.` });
      await p.admin.patch(`/projects/${p.projectId}/features/${created.body.id}`, { status });
    }
  });
  after(async () => server?.close());

  const headings = async () => {
    const html = await (await fetch(`${server.origin}/b/${p.projectId}/roadmap`)).text();
    return [...html.matchAll(/<h2 id="col-[^"]+">([^<]+?)\s*<span/g)].map((m) => m[1]!.trim());
  };

  it('hides Declined by default and follows the team’s columns; the REST roadmap is unchanged', async () => {
    const path = `/projects/${p.projectId}/board`;
    const before = await headings();
    assert.ok(!before.includes('Declined'), before.join());
    assert.deepEqual(before, ['Open', 'Planned', 'In progress', 'In review', 'Accepted', 'Done']);
    const rest = await p.live.get('/roadmap');
    const restColumns = rest.body.columns.map((c: any) => c.status);

    const set = await p.admin.patch(path, {
      roadmapColumns: [
        { status: 'in-progress', label: 'Now' },
        { status: 'planned', label: 'Next' },
        { status: 'done' },
      ],
    });
    assert.equal(set.status, 200, set.text);
    assert.deepEqual(set.body.roadmapColumns, [
      { status: 'in-progress', label: 'Now' },
      { status: 'planned', label: 'Next' },
      { status: 'done', label: null },
    ]);
    assert.deepEqual(await headings(), ['Now', 'Next', 'Done']);
    const html = await (await fetch(`${server.origin}/b/${p.projectId}/roadmap`)).text();
    assert.match(html, /Building thing/);
    assert.doesNotMatch(html, /Declined thing/);
    assert.deepEqual(
      (await p.live.get('/roadmap')).body.columns.map((c: any) => c.status),
      restColumns,
      'the public REST roadmap keeps the spec’s columns',
    );

    for (const bad of [
      [{ status: 'done' }, { status: 'done' }],
      [{ status: 'new' }],
      [{ status: 'done', label: '   ' }],
      [],
      'done',
    ]) {
      const refused = await p.admin.patch(path, { roadmapColumns: bad });
      assert.equal(refused.status, 400, JSON.stringify(bad));
    }
    assert.equal((await p.member.patch(path, { roadmapColumns: null })).status, 403);
    assert.deepEqual(await headings(), ['Now', 'Next', 'Done']);

    const reset = await p.admin.patch(path, { roadmapColumns: null });
    assert.equal(reset.status, 200);
    assert.deepEqual(await headings(), before);
  });
});
