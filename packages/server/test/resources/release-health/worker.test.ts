/**
 * The release-health worker's expiry: session state goes once its 5-day update window (plus a
 * day) has closed, hourly counts after the retention; newer rows stay. Rows are written through
 * the real envelope route, then aged by moving their times back. Expired hours leave their
 * release's running totals with them. On PostgreSQL session state goes with its day's partition
 * (the partition keeper, release-health/partitions.ts), not by the worker's batches.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { PartitionKeeper } from '../../../src/db/partition-keeper.ts';
import { ReleaseHealthWorker, sessionPartitions } from '../../../src/resources/release-health/mount.ts';
import { type ManagedProject, managedProject } from '../../support/manage-fixtures.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';

describe('release health: expiry', () => {
  let server: TestServer;
  let p: ManagedProject;
  before(async () => {
    server = await startTestServer();
    p = await managedProject(server);
  });
  after(() => server.close());

  it('expires session state after the update window and counts after the retention, in batches', async () => {
    const number = (await server.db.get<{ ingest_number: number }>('SELECT ingest_number FROM projects WHERE id = ?', [
      p.projectId,
    ]))!.ingest_number;
    const url = `${server.origin}/api/${number}/envelope/?sentry_key=${p.liveKey}`;
    for (let i = 0; i < 3; i++) {
      const body = [
        '{}',
        '{"type":"session"}',
        JSON.stringify({
          sid: randomUUID(),
          did: `u${i}`,
          status: 'exited',
          started: new Date().toISOString(),
          attrs: { release: `7.0.${i}` },
        }),
      ].join('\n');
      assert.equal((await fetch(url, { method: 'POST', body })).status, 200);
    }
    const count = async (table: string) =>
      Number(
        (await server.db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table} WHERE project_id = ?`, [p.projectId]))!
          .n,
      );
    assert.equal(await count('release_sessions'), 3);
    const log = pino({ level: 'silent' });
    const worker = new ReleaseHealthWorker({ db: server.db, retentionDays: 30, log });
    const day = 24 * 3600_000;
    // Seven days on: the sessions' state is gone, their counts stay.
    const later = new Date(Date.now() + 7 * day);
    if (server.db.dialect === 'postgres') {
      assert.equal(await worker.expire(later), 0, "the batches leave the keeper's days alone");
      const keeper = new PartitionKeeper({ db: server.db, tables: [sessionPartitions()], intervalMs: 0, log });
      const [kept] = await keeper.keep(later);
      assert.ok(kept!.dropped.length > 0);
    } else {
      assert.equal(await worker.expire(later), 3);
    }
    assert.equal(await count('release_sessions'), 0);
    assert.equal(await count('release_session_hours'), 3);
    assert.equal(await count('release_session_users'), 3);
    assert.equal(await count('release_health_totals'), 3);
    // Past the retention: the counts go too.
    assert.equal(await count('release_users'), 3);
    assert.equal(await worker.expire(new Date(Date.now() + 31 * day)), 9);
    assert.equal(await count('release_session_hours'), 0);
    assert.equal(await count('release_session_users'), 0);
    assert.equal(await count('release_users'), 0);
    // The running totals lose what the expired hours held: nothing is left of these releases.
    assert.equal(await count('release_health_totals'), 0);
  });

  it('expires on its first pass, and never with SESSION_EXPIRY_INTERVAL_MS 0', async () => {
    const number = (await server.db.get<{ ingest_number: number }>('SELECT ingest_number FROM projects WHERE id = ?', [
      p.projectId,
    ]))!.ingest_number;
    const body = [
      '{}',
      '{"type":"session"}',
      JSON.stringify({
        sid: randomUUID(),
        did: 'u9',
        status: 'exited',
        started: new Date().toISOString(),
        attrs: { release: '7.1.0' },
      }),
    ].join('\n');
    assert.equal(
      (await fetch(`${server.origin}/api/${number}/envelope/?sentry_key=${p.liveKey}`, { method: 'POST', body }))
        .status,
      200,
    );
    const users = async () =>
      Number(
        (await server.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM release_users WHERE project_id = ?', [
          p.projectId,
        ]))!.n,
      );
    const log = pino({ level: 'silent' });
    const pastRetention = new Date(Date.now() + 31 * 24 * 3600_000);
    const options = { db: server.db, retentionDays: 30, log, dropCheckMs: 0 };
    await new ReleaseHealthWorker({ ...options, expireEveryMs: 0 }).runPass(pastRetention);
    assert.equal(await users(), 1);
    await new ReleaseHealthWorker(options).runPass(pastRetention);
    assert.equal(await users(), 0);
  });
});
