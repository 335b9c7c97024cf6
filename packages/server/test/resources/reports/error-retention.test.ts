/**
 * Retention of kept error events (ERROR_EVENT_RETENTION_DAYS, here ten seconds: the events must
 * still be there when the test reads them right after sending, on a busy machine too — three
 * seconds were gone before the first read when `npm test` ran its lanes side by side): the alert
 * worker deletes events older than the setting in the background; the group, its count and its
 * users stay, and newer events are kept.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { type ManagedProject, managedProject } from '../../support/manage-fixtures.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';

describe('Error event retention', () => {
  let server: TestServer;
  let p: ManagedProject;

  before(async () => {
    server = await startTestServer({
      env: {
        // 10 seconds.
        ERROR_EVENT_RETENTION_DAYS: String(10 / 86_400),
        ERROR_EVENT_RETENTION_INTERVAL_MS: '200',
        ERROR_ALERT_POLL_MS: '100',
      },
    });
    p = await managedProject(server);
  });
  after(() => server.close());

  const kept = async (groupId: string) => {
    const response = await p.member.get(`/projects/${p.projectId}/error-groups/${groupId}/events`);
    assert.equal(response.status, 200, response.text);
    return response.body.kept as number;
  };

  it('deletes old events in the background and keeps the group and its counts', async () => {
    const error = { title: 'RetentionError: disk full', message: 'the disk is full', errorType: 'RetentionError' };
    for (let i = 0; i < 5; i++) {
      const sent = await p.live.post('/errors', { ...error, user: { id: `u${i}` } });
      assert.ok([200, 201].includes(sent.status), sent.text);
    }
    const groups = await p.member.get(`/projects/${p.projectId}/error-groups`, { query: { q: 'RetentionError' } });
    assert.equal(groups.status, 200, groups.text);
    const group = groups.body.groups[0];
    assert.equal(group.events, 5);
    assert.equal(await kept(group.id), 5);

    const deadline = Date.now() + 30_000;
    while ((await kept(group.id)) > 0) {
      assert.ok(Date.now() < deadline, 'old events were not deleted');
      await sleep(200);
    }
    const read = await p.member.get(`/projects/${p.projectId}/error-groups/${group.id}`);
    assert.equal(read.status, 200, read.text);
    assert.equal(read.body.events, 5, 'the count stays');
    assert.equal(read.body.users, group.users, 'the users stay');

    // A new event is kept (until it is old in turn), counted on the same group.
    const again = await p.live.post('/errors', error);
    assert.ok([200, 201].includes(again.status), again.text);
    assert.equal(await kept(group.id), 1);
    assert.equal((await p.member.get(`/projects/${p.projectId}/error-groups/${group.id}`)).body.events, 6);
  });
});
