/**
 * Merge keeps links: a merged idea's board URL answers 308 to the idea it was merged into (and a
 * merged target's old links follow it along a second merge); the public API's read of the merged
 * id stays the spec's 404; another project's board does not follow the redirect.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.ts';
import { managedProject, type ManagedProject } from '../support/manage-fixtures.ts';

describe('board: merged ideas redirect', () => {
  let server: TestServer;
  let p: ManagedProject;
  before(async () => {
    server = await startTestServer();
    p = await managedProject(server);
    assert.equal((await p.admin.patch(`/projects/${p.projectId}/board`, { enabled: true })).status, 200);
  });
  after(async () => server?.close());

  const board = (projectId: string, path: string) =>
    fetch(`${server.origin}/b/${projectId}${path}`, { redirect: 'manual' });
  async function idea(title: string): Promise<string> {
    const created = await p.live.post('/features', { title, description: `${title}, described.` });
    assert.equal(created.status, 201, created.text);
    return created.body.id;
  }
  const merge = async (from: string, to: string) => {
    const merged = await p.admin.post(`/projects/${p.projectId}/features/${from}/merge`, { targetId: to });
    assert.equal(merged.status, 200, merged.text);
  };

  it('answers 308 to the target on the board, 404 on the public API', async () => {
    const duplicate = await idea('Dark mode please');
    const target = await idea('Dark mode');
    assert.equal((await board(p.projectId, `/ideas/${duplicate}`)).status, 200);
    await merge(duplicate, target);

    const moved = await board(p.projectId, `/ideas/${duplicate}`);
    assert.equal(moved.status, 308);
    assert.equal(moved.headers.get('location'), `/b/${p.projectId}/ideas/${target}`);
    const followed = await fetch(`${server.origin}/b/${p.projectId}/ideas/${duplicate}`);
    assert.equal(followed.status, 200);
    assert.match(await followed.text(), /<h1[^>]*>Dark mode<\/h1>/);
    assert.equal((await p.live.get(`/features/${duplicate}`)).status, 404);
    assert.equal((await board(p.projectId, '/ideas/feat_never_was')).status, 404);

    // The target merged again: both old ids lead to the last one.
    const last = await idea('Dark theme everywhere');
    await merge(target, last);
    for (const old of [duplicate, target]) {
      const again = await board(p.projectId, `/ideas/${old}`);
      assert.equal(again.status, 308);
      assert.equal(again.headers.get('location'), `/b/${p.projectId}/ideas/${last}`);
    }

    // Another project's board knows nothing of this project's redirects.
    const other = await managedProject(server);
    await other.admin.patch(`/projects/${other.projectId}/board`, { enabled: true });
    assert.equal((await board(other.projectId, `/ideas/${duplicate}`)).status, 404);

    // Deleting the target: its redirects go with it.
    assert.ok((await p.admin.delete(`/projects/${p.projectId}/features/${last}`)).status < 300);
    assert.equal((await board(p.projectId, `/ideas/${duplicate}`)).status, 404);
  });
});
