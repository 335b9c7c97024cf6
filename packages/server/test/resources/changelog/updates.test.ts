/**
 * "What's new" (issue 35) through the public API: the newest published entries with board
 * permalinks, unread counts for an anonymous reader (its own `since`) and for a reader identified by
 * the host app's signed token (a marker kept by the server, the same from any client), the
 * announcement flag set by the team, and refusals: forged, expired or missing tokens.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SignJWT } from 'jose';
import { managedProjectSuite } from '../../support/manage-fixtures.ts';

async function userToken(secret: string, sub: string, options: { age?: number } = {}) {
  const now = Math.floor(Date.now() / 1000) - (options.age ?? 0);
  return new SignJWT({ email: `${sub}@example.com` })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(sub)
    .setIssuedAt(now)
    .setExpirationTime(now + 3600)
    .sign(new TextEncoder().encode(secret));
}

describe("public API: what's new", () => {
  const p = managedProjectSuite();
  const header = (token: string) => ({ headers: { 'x-signpost-user': token } });

  const publish = async (summary: string, announcement = false) => {
    const created = await p.admin.post(`/projects/${p.projectId}/changelog`, {
      summary,
      published: true,
      announcement,
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.body.announcement, announcement);
    return created.body as { id: string; publishedAt: string };
  };

  it('counts unread entries per identified person, the same from any client, and marks them seen', async () => {
    const secret = (await p.admin.post(`/projects/${p.projectId}/board/sso-secret`)).body.secret as string;
    assert.ok(secret);
    const ada = await userToken(secret, 'ada');
    let res = await p.live.get('/updates', header(ada));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body, { entries: [], unread: 0, seenThrough: null, identified: true });

    const first = await publish('Dark mode');
    const second = await publish('CSV export', true);
    await p.admin.post(`/projects/${p.projectId}/changelog`, { summary: 'A draft' });

    res = await p.live.get('/updates', header(ada));
    assert.equal(res.body.unread, 2);
    assert.deepEqual(
      res.body.entries.map((e: any) => [e.summary, e.unread, e.announcement]),
      [
        ['CSV export', true, true],
        ['Dark mode', true, false],
      ],
    );
    assert.match(res.body.entries[0].url, new RegExp(`/b/${p.projectId}/changelog/${second.id}$`));

    // A second client (a fresh token for the same person) sees the same count.
    const again = await userToken(secret, 'ada');
    assert.equal((await p.live.get('/updates', header(again))).body.unread, 2);

    // Seen through the first entry only, then all; the marker never moves back.
    res = await p.live.put('/updates/seen', { through: first.publishedAt }, header(ada));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.seenThrough, first.publishedAt);
    assert.equal((await p.live.get('/updates', header(again))).body.unread, 1);
    res = await p.live.put('/updates/seen', {}, header(ada));
    assert.equal(res.body.seenThrough, second.publishedAt);
    res = await p.live.put('/updates/seen', { through: '2000-01-01T00:00:00Z' }, header(again));
    assert.equal(res.body.seenThrough, second.publishedAt);
    // A time in the future marks no further than the newest entry, so later ones still count.
    await p.live.put('/updates/seen', { through: '2999-01-01T00:00:00Z' }, header(again));
    res = await p.live.get('/updates', header(again));
    assert.equal(res.body.unread, 0);
    assert.equal(res.body.seenThrough, second.publishedAt);

    // Another person has their own marker.
    assert.equal((await p.live.get('/updates', header(await userToken(secret, 'bob')))).body.unread, 2);
    // The test key reads the same project changelog and marker.
    assert.equal((await p.test.get('/updates', header(again))).body.unread, 0);
  });

  it('an anonymous reader sends its own marker', async () => {
    const all = await p.live.get('/updates');
    assert.equal(all.body.identified, false);
    assert.equal(all.body.seenThrough, null);
    assert.equal(all.body.unread, all.body.entries.length);
    const newest = all.body.entries[0].publishedAt;
    const res = await p.live.get('/updates', { query: { since: newest } });
    assert.equal(res.body.unread, 0);
    assert.equal(res.body.seenThrough, newest);
    assert.ok(res.body.entries.every((e: any) => e.unread === false));
    assert.equal((await p.live.get('/updates', { query: { since: 'yesterday' } })).status, 400);
    // A leap second passes the date-time format but is no time: 400 too, never a 500.
    assert.equal((await p.live.get('/updates', { query: { since: '2026-12-31T23:59:60Z' } })).status, 400);
  });

  it('hides entries of internal features, and refuses forged, expired or missing tokens', async () => {
    const feature = await p.live.post('/features', { title: 'Secret plan', description: 'Nobody should see this.' });
    await p.live.patch(`/features/${feature.body.id}`, { internal: true });
    const linked = await p.admin.post(`/projects/${p.projectId}/changelog`, {
      summary: 'Shipped the secret plan',
      featureId: feature.body.id,
      published: true,
    });
    assert.equal(linked.status, 201);
    const res = await p.live.get('/updates');
    assert.ok(!res.body.entries.some((e: any) => e.id === linked.body.id));

    const forged = await userToken('not-the-secret-not-the-secret-not', 'ada');
    for (const token of [forged, 'garbage', await userTokenWithOwnSecret(p, 'ada', 2 * 86400)]) {
      const refused = await p.live.get('/updates', header(token));
      assert.equal(refused.status, 401, token);
      assert.equal(refused.body.code, 'Unauthorized');
      assert.equal((await p.live.put('/updates/seen', {}, header(token))).status, 401);
    }
    const missing = await p.live.put('/updates/seen', {});
    assert.equal(missing.status, 401);
    assert.equal(missing.body.error, 'Missing user token');
  });

  it('the team sets and clears the announcement flag', async () => {
    const entry = await publish('Big launch', true);
    const path = `/projects/${p.projectId}/changelog/${entry.id}`;
    let res = await p.admin.patch(path, { announcement: false });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.announcement, false);
    res = await p.admin.patch(path, { announcement: true });
    assert.equal(res.body.announcement, true);
    const listed = await p.live.get('/updates');
    assert.equal(listed.body.entries.find((e: any) => e.id === entry.id).announcement, true);
  });
});

/** A token signed with the project's current secret (rotated anew: the earlier tokens stop working too). */
async function userTokenWithOwnSecret(p: { admin: any; projectId: string }, sub: string, age: number) {
  const secret = (await p.admin.post(`/projects/${p.projectId}/board/sso-secret`)).body.secret as string;
  return userToken(secret, sub, { age });
}
