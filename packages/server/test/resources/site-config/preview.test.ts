import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { managedProjectSuite } from '../../support/manage-fixtures.ts';

describe('management: site configuration preview', () => {
  const p = managedProjectSuite();

  const path = (rest = '') => `/projects/${p.projectId}/site-config${rest}`;
  const preview = () => p.member.get(path('/preview'));
  const publicConfig = (api = p.anonymous) => api.get('/site-config', { query: { projectId: p.projectId } });

  /** The preview and the public answers, as bytes and ETag, for the same stored configuration. */
  async function sameAsPublic() {
    const shown = await preview();
    assert.equal(shown.status, 200);
    assert.match(shown.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(shown.headers.get('cache-control'), 'no-store');
    for (const api of [p.anonymous, p.live, p.test]) {
      const served = await publicConfig(api);
      assert.equal(served.status, 200);
      assert.equal(served.text, shown.text, 'the same bytes');
      assert.equal(served.headers.get('etag'), shown.headers.get('etag'), 'the same ETag');
    }
    return shown;
  }

  it('answers what the public endpoint answers, byte for byte, with its ETag', async () => {
    const first = await sameAsPublic();
    assert.match(first.headers.get('etag') ?? '', /^"[0-9a-f]{32}"$/);
    assert.equal(first.body.maintenance.enabled, false);
    // The public answer's ETag gives a 304 there while nothing changed.
    const revalidated = await p.anonymous.get('/site-config', {
      query: { projectId: p.projectId },
      headers: { 'if-none-match': first.headers.get('etag')! },
    });
    assert.equal(revalidated.status, 304);
  });

  it('moves lastUpdated and the ETag with every save, and stays equal to the public answer', async () => {
    const saves: [string, () => Promise<{ status: number }>][] = [
      [
        'maintenance',
        () => p.admin.patch(path('/maintenance'), { enabled: true, type: 'custom', customHtml: '<p>x</p>' }),
      ],
      ['flag created', () => p.admin.put(path('/flags/new-checkout'), { enabled: true })],
      ['flag toggled', () => p.admin.put(path('/flags/new-checkout'), { enabled: false })],
      [
        'message',
        () =>
          p.admin.post(path('/messages'), {
            type: 'info',
            text: 'Hello',
            startsAt: new Date(Date.now() - 60_000).toISOString(),
            expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
          }),
      ],
      ['environment', () => p.admin.post(path('/environments'), { name: 'Staging', slug: 'staging' })],
      ['debug mode', () => p.admin.patch(path(), { debugMode: true })],
    ];
    let before = await sameAsPublic();
    for (const [what, save] of saves) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      const res = await save();
      assert.ok(res.status < 300, `${what}: ${res.status}`);
      const after = await sameAsPublic();
      assert.ok(after.body.lastUpdated > before.body.lastUpdated, `${what} moved lastUpdated`);
      assert.notEqual(after.headers.get('etag'), before.headers.get('etag'), `${what} moved the ETag`);
      const old = await p.anonymous.get('/site-config', {
        query: { projectId: p.projectId },
        headers: { 'if-none-match': before.headers.get('etag')! },
      });
      assert.equal(old.status, 200, `${what}: the old ETag no longer gives a 304`);
      before = after;
    }
    assert.equal(before.body.maintenance.customHtml, '<p>x</p>');
    assert.deepEqual(
      before.body.featureFlags.map((f: any) => [f.key, f.enabled]),
      [['new-checkout', false]],
    );
    assert.equal(before.body.messages[0].text, 'Hello');
    assert.equal(before.body.environments[0].slug, 'staging');
    assert.equal(before.body.debugMode, true);
  });

  it('shows only what is live now, like the public endpoint (scheduled messages left out)', async () => {
    await p.admin.post(path('/messages'), {
      type: 'warning',
      text: 'Later',
      startsAt: new Date(Date.now() + 3_600_000).toISOString(),
    });
    const shown = await sameAsPublic();
    assert.ok(!shown.body.messages.some((m: any) => m.text === 'Later'));
  });

  it('is for the project’s team only', async () => {
    assert.equal((await p.outsider.get(path('/preview'))).status, 404);
    assert.equal((await p.owner.get(path('/preview'))).status, 200);
    assert.equal((await p.admin.get(`/projects/nope/site-config/preview`)).status, 404);
  });
});
