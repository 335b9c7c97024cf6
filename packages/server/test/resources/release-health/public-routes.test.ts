/**
 * POST /sessions (the error tracker's release health): counted like Sentry's session items, bad
 * input a 400 that writes nothing, a key without `errors:write` a 403, projects kept apart.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { managedProjectSuite } from '../../support/manage-fixtures.ts';

describe('POST /sessions', () => {
  const p = managedProjectSuite();
  const update = (sid: string, status: string, extra: Record<string, unknown> = {}) => ({
    sid,
    did: 'ada',
    status,
    started: new Date().toISOString(),
    release: 'cli@6.0.0',
    ...extra,
  });
  const counts = async () => {
    const response = await p.member.get(`/projects/${p.projectId}/release-health/6.0.0`, { query: { days: 1 } });
    return response.status === 200 ? response.body.release.sessions : undefined;
  };

  it('counts a session once by its worst status and ignores updates older than 5 days', async () => {
    const first = await p.live.post('/sessions', { sessions: [update('s1', 'ok'), update('s2', 'ok', { errors: 1 })] });
    assert.equal(first.status, 200, first.text);
    assert.deepEqual(first.body, { counted: 2, ignored: 0 });
    assert.equal((await p.live.post('/sessions', { sessions: [update('s1', 'crashed')] })).status, 200);
    assert.equal((await p.live.post('/sessions', { sessions: [update('s1', 'exited')] })).status, 200);
    const old = new Date(Date.now() - 5 * 24 * 3600_000 - 60_000).toISOString();
    const late = await p.live.post('/sessions', { sessions: [update('s3', 'crashed', { started: old })] });
    assert.deepEqual(late.body, { counted: 0, ignored: 1 });
    assert.deepEqual(await counts(), { total: 2, healthy: 0, errored: 1, unhandled: 0, abnormal: 0, crashed: 1 });
  });

  it('counts a user once per release, in the range by their latest session and latest crash', async () => {
    const threeDaysAgo = new Date(Date.now() - 3 * 24 * 3600_000).toISOString();
    const sessions = [
      update('e1', 'crashed', { did: 'eve', started: threeDaysAgo, release: '8.0.0' }),
      update('e2', 'exited', { did: 'eve', release: '8.0.0' }),
      update('e3', 'exited', { did: 'fay', release: '8.0.0' }),
      update('e4', 'exited', { did: 'fay', release: '8.0.0' }),
    ];
    assert.equal((await p.live.post('/sessions', { sessions })).status, 200);
    const users = async (days: number) =>
      (await p.member.get(`/projects/${p.projectId}/release-health/8.0.0`, { query: { days } })).body.release.users;
    assert.deepEqual(await users(1), { total: 2, crashed: 0 });
    assert.deepEqual(await users(7), { total: 2, crashed: 1 });
  });

  it('refuses bad input with a 400 and writes nothing; needs errors:write', async () => {
    for (const body of [
      {},
      { sessions: [] },
      { sessions: [update('s9', 'exploded')] },
      { sessions: [update('s9', 'ok', { started: 'yesterday' })] },
      { sessions: [update('s9', 'ok', { release: '' })] },
      { sessions: [update('s9', 'ok', { extra: 1 })] },
    ]) {
      const response = await p.live.post('/sessions', body);
      assert.equal(response.status, 400, JSON.stringify(body));
    }
    const key = await p.owner.post(`/projects/${p.projectId}/keys`, { environment: 'live', scopes: ['logs:write'] });
    const refused = await p.anonymous.withKey(key.body.key).post('/sessions', { sessions: [update('s9', 'ok')] });
    assert.equal(refused.status, 403);
    assert.equal((await counts())?.total, 2);
    // The test key's sessions count apart from the live key's.
    assert.equal((await p.test.post('/sessions', { sessions: [update('t1', 'crashed')] })).status, 200);
    assert.equal((await counts())?.total, 2);
  });
});
