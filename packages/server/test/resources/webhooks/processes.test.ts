/**
 * Webhook delivery across server processes: an event written by a process killed with SIGKILL
 * before delivering it is delivered after a restart; so is the e-mail telling a team its endpoint
 * was disabled; two processes on one PostgreSQL database deliver each event exactly once.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import type { Database } from '../../../src/db/database.ts';
import { serverKey } from '../../../src/db/instance-keys.ts';
import { migrate } from '../../../src/db/migrate.ts';
import { openDatabase } from '../../../src/db/open.ts';
import { newId } from '../../../src/kernel/ids.ts';
import { createAccount } from '../../../src/resources/accounts/index.ts';
import { ALL_PUBLIC_SCOPES, createApiKey, createProject } from '../../../src/resources/projects/index.ts';
import { newSecretId, secretHint, webhookSecret } from '../../../src/resources/webhooks/secret.ts';
import { insertEndpoint } from '../../../src/resources/webhooks/store.ts';
import { Api } from '../../support/api.ts';
import { createTestDatabase, testDbKind, type TestDatabase } from '../../support/database.ts';
import { startMailbox, startStalledMailServer, type Mailbox, type StalledMailServer } from '../../support/mailbox.ts';
import { startServerProcess, startTestServer, type ServerProcess, type TestServer } from '../../support/server.ts';
import { startWebhookReceiver, verified, type WebhookReceiver } from '../../support/webhook-receiver.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

/** The "endpoint disabled" notice of the project's one endpoint: when it is due, how often tried. */
async function noticeOf(db: Database, projectId: string) {
  const [row] = await db.all<{ notice_due_at: string | null; notice_attempts: number }>(
    'SELECT notice_due_at, notice_attempts FROM webhook_endpoints WHERE project_id = ?',
    [projectId],
  );
  return row!;
}

/** A project with a live key and one endpoint for `feature.created`, written directly. */
async function projectWithHook(db: Database, url: string) {
  const projectId = newId('proj');
  await createProject(db, { id: projectId, name: 'Hooks', slug: projectId, monthlyQuota: null });
  const key = (await createApiKey(db, projectId, 'live', ALL_PUBLIC_SCOPES)).key;
  const secretId = newSecretId();
  const secret = webhookSecret(await serverKey(db, undefined), projectId, secretId);
  await insertEndpoint(db, projectId, {
    url,
    description: null,
    events: ['feature.created'],
    format: 'standard',
    enabled: true,
    secretId,
    secretHint: secretHint(secret),
  });
  return { projectId, key, secret };
}

async function createFeature(server: ServerProcess, key: string, title: string): Promise<string> {
  const response = await new Api(server.baseUrl, key).post('/features', {
    title,
    description: 'Written through a server process.',
  });
  assert.equal(response.status, 201, response.text);
  return response.body.id;
}

const WEBHOOK_ENV = { WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOKS_RETRY_BASE_MS: '100' };

describe('webhooks: an event survives kill -9 before delivery', () => {
  let database: TestDatabase;
  let db: Database;
  let receiver: WebhookReceiver;
  const processes: ServerProcess[] = [];

  before(async () => {
    database = await createTestDatabase();
    receiver = await startWebhookReceiver();
  });
  after(async () => {
    for (const server of processes) await server.stop('SIGTERM');
    await receiver.close();
    await db?.close();
    await database?.drop();
  });

  it('is delivered, once, by the restarted server', async () => {
    // No worker in the first process: the event stays in the outbox when it dies.
    const first = await startServerProcess(database, { ...WEBHOOK_ENV, WEBHOOKS_POLL_MS: '0' });
    processes.push(first);
    db = openDatabase({ databaseUrl: database.url, dataDir: database.dataDir });
    await migrate(db);
    const { key, secret } = await projectWithHook(db, `${receiver.origin}/ok/killed`);
    const featureId = await createFeature(first, key, 'Written before the kill');
    const exited = new Promise((resolve) => first.child.once('exit', resolve));
    first.child.kill('SIGKILL');
    await exited;
    processes.splice(processes.indexOf(first), 1);
    assert.equal(receiver.to('/ok/killed').length, 0);

    const second = await startServerProcess(database, { ...WEBHOOK_ENV, WEBHOOKS_POLL_MS: '20' });
    processes.push(second);
    const [request] = await receiver.waitFor('/ok/killed', 1);
    const body = verified(secret, request!);
    assert.equal(body.type, 'feature.created');
    assert.equal(body.data.feature.id, featureId);
    await sleep(500);
    assert.equal(receiver.to('/ok/killed').length, 1);
  });

  it('a delivery claimed by a process killed mid-send is taken over once its lease ends', async () => {
    // Only the process about to be killed may claim the delivery.
    for (const server of processes.splice(0)) await server.stop('SIGTERM');
    // The receiver hangs on the first request: the first process is killed while sending.
    const first = await startServerProcess(database, {
      ...WEBHOOK_ENV,
      WEBHOOKS_POLL_MS: '20',
      WEBHOOKS_LEASE_SECONDS: '2',
      WEBHOOKS_TIMEOUT_MS: '30000',
    });
    processes.push(first);
    db ??= openDatabase({ databaseUrl: database.url, dataDir: database.dataDir });
    await migrate(db);
    const { key, secret } = await projectWithHook(db, `${receiver.origin}/slow/1/mid-send`);
    const featureId = await createFeature(first, key, 'Sent when the kill came');
    await receiver.waitFor('/slow/1/mid-send', 1);
    const exited = new Promise((resolve) => first.child.once('exit', resolve));
    first.child.kill('SIGKILL');
    await exited;
    processes.splice(processes.indexOf(first), 1);
    const [row] = await db.all<{ state: string; attempts: number }>(
      "SELECT state, attempts FROM webhook_deliveries WHERE payload LIKE '%' || ? || '%'",
      [featureId],
    );
    assert.deepEqual([row!.state, Number(row!.attempts)], ['sending', 1]);

    const second = await startServerProcess(database, { ...WEBHOOK_ENV, WEBHOOKS_POLL_MS: '20' });
    processes.push(second);
    const got = await receiver.waitFor('/slow/1/mid-send', 2);
    assert.equal(got[1]!.answered, 204);
    assert.equal(got[1]!.headers['webhook-id'], got[0]!.headers['webhook-id'], 'the same message, by its webhook-id');
    assert.equal(verified(secret, got[1]!).data.feature.id, featureId);
    await sleep(300);
    const [after] = await db.all<{ state: string; attempts: number }>(
      "SELECT state, attempts FROM webhook_deliveries WHERE payload LIKE '%' || ? || '%'",
      [featureId],
    );
    assert.deepEqual([after!.state, Number(after!.attempts)], ['delivered', 2]);
  });
});

describe("webhooks: a disabled endpoint's team is told, even when the telling process dies", () => {
  let database: TestDatabase;
  let db: Database;
  let receiver: WebhookReceiver;
  let mailbox: Mailbox;
  let stall: StalledMailServer;
  const processes: ServerProcess[] = [];

  before(async () => {
    database = await createTestDatabase();
    receiver = await startWebhookReceiver();
    mailbox = await startMailbox();
    stall = await startStalledMailServer();
  });
  after(async () => {
    for (const server of processes) await server.stop('SIGTERM');
    await stall.close();
    await mailbox.close();
    await receiver.close();
    await db?.close();
    await database?.drop();
  });

  it('the notice made due with the disabling is sent by the next process, once', async () => {
    // One failed delivery disables; the e-mail then hangs at the mail server until the kill.
    const first = await startServerProcess(database, {
      ...WEBHOOK_ENV,
      WEBHOOKS_POLL_MS: '20',
      WEBHOOKS_MAX_ATTEMPTS: '1',
      WEBHOOKS_DISABLE_AFTER: '1',
      WEBHOOKS_LEASE_SECONDS: '2',
      SMTP_URL: stall.url,
    });
    processes.push(first);
    db = openDatabase({ databaseUrl: database.url, dataDir: database.dataDir });
    await migrate(db);
    const { projectId, key } = await projectWithHook(db, `${receiver.origin}/down/notice`);
    const owner = await db.transaction((tx) =>
      createAccount(tx, { email: 'owner@example.com', name: 'Owner', passwordHash: null, verified: true }),
    );
    const team = (await db.get<{ id: string }>('SELECT id FROM teams WHERE owner_account_id = ?', [owner.id]))!;
    await db.run('UPDATE projects SET team_id = ?, name = ? WHERE id = ?', [team.id, 'Hooked app', projectId]);
    await createFeature(first, key, 'Never delivered');
    await until('the telling hangs at the mail server', async () => stall.connected());
    await first.stop('SIGKILL');
    processes.splice(processes.indexOf(first), 1);
    const [disabled] = await db.all<{ enabled: number; notice_attempts: number }>(
      'SELECT enabled, notice_attempts FROM webhook_endpoints WHERE project_id = ?',
      [projectId],
    );
    assert.deepEqual([Number(disabled!.enabled), Number(disabled!.notice_attempts)], [0, 1]);

    const second = await startServerProcess(database, {
      ...WEBHOOK_ENV,
      WEBHOOKS_POLL_MS: '20',
      SMTP_URL: mailbox.url,
    });
    processes.push(second);
    const mail = await mailbox.waitFor((m) => m.subject === `Webhook disabled: ${receiver.origin}/down/notice`, 10_000);
    assert.deepEqual(mail.to, ['owner@example.com']);
    assert.match(mail.text, /of Hooked app was disabled/);
    assert.match(mail.text, /Last error: .*500/);
    await until('the notice is settled', async () => (await noticeOf(db, projectId)).notice_due_at === null);
    assert.equal(Number((await noticeOf(db, projectId)).notice_attempts), 2);
    await sleep(300);
    assert.equal(mailbox.messages.filter((m) => m.subject.startsWith('Webhook disabled')).length, 1);
  });
});

describe('webhooks: a notice the mail server refuses is sent at a later attempt', () => {
  let smtp: SMTPServer;
  let server: TestServer;
  let receiver: WebhookReceiver;
  let refusals = 0;
  const accepted: string[] = [];

  before(async () => {
    receiver = await startWebhookReceiver();
    // Refuses the first two messages ("try again later"), then accepts.
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData(stream, session, callback) {
        stream.resume();
        stream.on('end', () => {
          if (refusals < 2) {
            refusals++;
            return callback(Object.assign(new Error('try again later'), { responseCode: 451 }));
          }
          accepted.push(session.envelope.rcptTo[0]!.address);
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    server = await startTestServer({
      env: {
        ...WEBHOOK_ENV,
        SMTP_URL: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`,
        WEBHOOKS_POLL_MS: '20',
        WEBHOOKS_MAX_ATTEMPTS: '3',
        WEBHOOKS_DISABLE_AFTER: '1',
      },
    });
  });
  after(async () => {
    await server.close();
    await receiver.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  it('after two refusals, the third attempt reaches the team', async () => {
    const { projectId, key } = await projectWithHook(server.db, `${receiver.origin}/down/refused-notice`);
    const owner = await server.db.transaction((tx) =>
      createAccount(tx, { email: 'refused-owner@example.com', name: 'Owner', passwordHash: null, verified: true }),
    );
    await server.db.run(
      'UPDATE projects SET team_id = (SELECT id FROM teams WHERE owner_account_id = ?) WHERE id = ?',
      [owner.id, projectId],
    );
    const created = await new Api(server.baseUrl, key).post('/features', {
      title: 'Never delivered',
      description: 'Its webhook is down for good.',
    });
    assert.equal(created.status, 201, created.text);
    await until('the team is told', async () => accepted.length > 0);
    assert.deepEqual([refusals, accepted], [2, ['refused-owner@example.com']]);
    // Settled once the mail server's answer is back (it has the message a moment before that).
    await until('the notice is settled', async () => (await noticeOf(server.db, projectId)).notice_due_at === null);
    assert.equal(Number((await noticeOf(server.db, projectId)).notice_attempts), 3);
  });
});

const skipUnlessPostgres =
  testDbKind() === 'postgres' ? false : 'needs PostgreSQL (SIGNPOST_TEST_DB=postgres): SQLite runs as one process';

describe('webhooks: two server processes on one PostgreSQL database', { skip: skipUnlessPostgres }, () => {
  let database: TestDatabase;
  let db: Database;
  let receiver: WebhookReceiver;
  const processes: ServerProcess[] = [];

  before(async () => {
    database = await createTestDatabase('postgres');
    receiver = await startWebhookReceiver();
    for (let i = 0; i < 2; i++) {
      processes.push(await startServerProcess(database, { ...WEBHOOK_ENV, WEBHOOKS_POLL_MS: '10' }));
    }
    db = openDatabase({ databaseUrl: database.url, dataDir: database.dataDir });
    await migrate(db);
  });
  after(async () => {
    const codes = await Promise.all(processes.map((server) => server.stop('SIGTERM')));
    await receiver.close();
    await db?.close();
    await database?.drop();
    assert.deepEqual(codes, [0, 0], 'both processes shut down cleanly');
  });

  it('delivers each event exactly once, whichever process claims it', async () => {
    const hooks = [
      await projectWithHook(db, `${receiver.origin}/ok/multi-a`),
      await projectWithHook(db, `${receiver.origin}/ok/multi-b`),
    ];
    const count = 40;
    const ids = await Promise.all(
      Array.from({ length: count }, (_, i) =>
        createFeature(processes[i % 2]!, hooks[i % 2 === 0 ? 0 : 1]!.key, `Idea number ${i}`),
      ),
    );
    await receiver.waitFor('/ok/multi-', count, 30_000);
    await sleep(1000);
    const got = receiver.to('/ok/multi-');
    assert.equal(got.length, count, 'no event delivered twice');
    const delivered = got.map((request) => {
      const hook = request.path === '/ok/multi-a' ? hooks[0]! : hooks[1]!;
      return verified(hook.secret, request).data.feature.id as string;
    });
    assert.deepEqual(delivered.sort(), ids.sort());
    assert.equal(new Set(got.map((request) => request.headers['webhook-id'])).size, count);
    const rows = await db.all<{ state: string; attempts: number }>('SELECT state, attempts FROM webhook_deliveries');
    assert.equal(rows.length, count);
    assert.ok(rows.every((row) => row.state === 'delivered' && Number(row.attempts) === 1));
  });
});
