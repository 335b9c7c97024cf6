/**
 * The error writer's gathered writes (resources/reports/error-writer.ts) take a new record's columns
 * from the first report of its group in the write, and its release from the latest report naming
 * one, whether the reports arrived while nothing was written or while a write was under way. The
 * writer takes those columns from the first queued report of a group before the write and lets its
 * body go (takeColumns, issue 31): what is stored must be what the body says, as before.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { recordError } from '../../../src/resources/reports/error-writer.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';

describe('error writer', () => {
  let server: TestServer;
  let scope: { projectId: string; environment: 'live' };
  before(async () => {
    server = await startTestServer();
    scope = { projectId: (await server.createProject()).projectId, environment: 'live' };
  });
  after(() => server.close());

  const body = (title: string, n: number, version?: string) => ({
    title,
    message: `Message ${n}`,
    errorType: 'TypeError',
    stackTrace: `TypeError: ${title}\n    at step${n} (app.js:${n}:1)`,
    breadcrumbs: [
      { timestamp: '2026-11-29T07:00:00.000Z', type: 'click' as const, message: `crumb ${n}`, data: { n } },
    ],
    app: { ...(version ? { version } : {}), environment: 'production' as const, userId: `user-${n}` },
    metadata: { n },
  });

  const record = (id: string) =>
    server.db.get<{ message: string; breadcrumbs: string; app: string; metadata: string; app_version: string | null }>(
      'SELECT message, breadcrumbs, app, metadata, app_version FROM error_reports WHERE id = ?',
      [id],
    );

  it('writes a record from its first report and the latest release, however they were gathered', async () => {
    const now = new Date();
    // A write under way (the first report, alone), while three groups' reports queue behind it, one
    // group's interleaved with the others'.
    const first = recordError(server.db, scope, body('Gathered alone', 0, '1.0.0'), now);
    const queued = [
      recordError(server.db, scope, body('Gathered A', 1, '1.0.0'), now),
      recordError(server.db, scope, body('Gathered B', 2), now),
      recordError(server.db, scope, body('Gathered A', 3, '1.2.0'), now),
      recordError(server.db, scope, body('Gathered A', 4), now),
      recordError(server.db, scope, body('Gathered B', 5, '2.0.0'), now),
    ];
    const alone = await first;
    const [a1, b2, a3, a4, b5] = await Promise.all(queued);
    assert.equal(alone.duplicate, false);
    assert.deepEqual(
      [a1, b2, a3, a4, b5].map((occurrence) => occurrence!.duplicate),
      [false, false, true, true, true],
    );
    assert.equal(a3!.id, a1!.id);
    assert.equal(a4!.id, a1!.id);
    assert.equal(b5!.id, b2!.id);

    const a = await record(a1!.id);
    assert.equal(a?.message, 'Message 1');
    assert.deepEqual(JSON.parse(a!.breadcrumbs), body('', 1).breadcrumbs);
    assert.deepEqual(JSON.parse(a!.app), body('', 1, '1.0.0').app);
    assert.deepEqual(JSON.parse(a!.metadata), { n: 1 });
    assert.equal(a?.app_version, '1.2.0', 'the latest release named');
    const b = await record(b2!.id);
    assert.equal(b?.message, 'Message 2');
    assert.equal(b?.app_version, '2.0.0');
    assert.equal((await record(alone.id))?.app_version, '1.0.0');

    // A repeat in a later write counts on the record and leaves its columns as they were.
    const again = await recordError(server.db, scope, body('Gathered A', 6, '1.3.0'), new Date());
    assert.equal(again.id, a1!.id);
    assert.equal(again.duplicate, true);
    const later = await record(a1!.id);
    assert.equal(later?.message, 'Message 1');
    assert.equal(later?.app_version, '1.3.0');
  });
});
