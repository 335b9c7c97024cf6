/**
 * The board's roadmap as an iframe page (`/b/<slug>/embed/roadmap`, issue 35): public items only,
 * no script and no form (works without JavaScript, nothing to click-jack), links open the board in
 * a new tab, and framing follows BOARD_EMBED_FRAME_ANCESTORS while every other board page keeps
 * refusing to be framed.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { managedProject, type ManagedProject } from '../support/manage-fixtures.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

describe('board: roadmap embed page', () => {
  let server: TestServer;
  let p: ManagedProject;
  before(async () => {
    server = await startTestServer({ env: { BOARD_EMBED_FRAME_ANCESTORS: "'self'  https://app.example.com" } });
    p = await managedProject(server);
    assert.equal((await p.admin.patch(`/projects/${p.projectId}/board`, { enabled: true })).status, 200);
    for (const [title, status, internal] of [
      ['Public planned idea', 'planned', false],
      ['Secret planned idea', 'planned', true],
      ['Shipped idea', 'done', false],
    ] as const) {
      const created = await p.live.post('/features', { title, description: `${title}, described.`, internal });
      assert.equal(created.status, 201);
      await p.admin.patch(`/projects/${p.projectId}/features/${created.body.id}`, { status });
    }
  });
  after(async () => server?.close());

  it('shows the public columns only, without script or form, frameable by the configured sites', async () => {
    const res = await fetch(`${server.origin}/b/${p.projectId}/embed/roadmap`);
    assert.equal(res.status, 200);
    const html = await res.text();
    assert.match(html, /Public planned idea/);
    assert.match(html, /Shipped idea/);
    assert.doesNotMatch(html, /Secret planned idea/);
    assert.doesNotMatch(html, /<script|<form/);
    assert.match(html, /<a href="\/b\/[^"]+\/ideas\/[^"]+" target="_blank" rel="noopener">Public planned idea<\/a>/);
    const csp = res.headers.get('content-security-policy') ?? '';
    assert.match(csp, /frame-ancestors 'self' https:\/\/app\.example\.com/);
    assert.doesNotMatch(csp, /frame-ancestors 'none'/);
    assert.equal(res.headers.get('x-frame-options'), null);

    // A second, cached answer carries the same policy; other board pages still refuse framing.
    const again = await fetch(`${server.origin}/b/${p.projectId}/embed/roadmap`);
    assert.match(
      again.headers.get('content-security-policy') ?? '',
      /frame-ancestors 'self' https:\/\/app\.example\.com/,
    );
    const roadmap = await fetch(`${server.origin}/b/${p.projectId}/roadmap`);
    assert.match(roadmap.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
    assert.equal(roadmap.headers.get('x-frame-options'), 'DENY');
  });

  it('a bad frame-ancestors setting is refused when the configuration is read', async () => {
    assert.throws(
      () => loadConfig({ BOARD_EMBED_FRAME_ANCESTORS: 'javascript:alert(1)' }),
      /BOARD_EMBED_FRAME_ANCESTORS/,
    );
    assert.equal(loadConfig({}).boardEmbedFrameAncestors, '*');
  });
});
