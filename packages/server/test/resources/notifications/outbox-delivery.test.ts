/**
 * The outbox worker's delivery guarantees, through real server processes and SMTP servers:
 * a refused send is tried again with growing pauses and given up after the configured attempts;
 * `kill -9` of a process in the middle of sending loses nothing (another process takes over the
 * messages once their lease runs out, and sends each once); several processes on one PostgreSQL
 * database send each message once.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import type { Database } from '../../../src/db/database.ts';
import { migrate } from '../../../src/db/migrate.ts';
import { openDatabase } from '../../../src/db/open.ts';
import { ALL_PUBLIC_SCOPES, createApiKey, createProject } from '../../../src/resources/projects/index.ts';
import { insertFeature } from '../../../src/resources/features/index.ts';
import { newId } from '../../../src/kernel/ids.ts';
import { Api } from '../../support/api.ts';
import { createTestDatabase, testDbKind, type TestDatabase } from '../../support/database.ts';
import { startMailbox, startStalledMailServer, type Mailbox, type StalledMailServer } from '../../support/mailbox.ts';
import { startServerProcess, startTestServer, type ServerProcess, type TestServer } from '../../support/server.ts';
import { createFollower, type TestBoardUser } from '../../support/followers.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

async function states(db: Database, featureId: string): Promise<Record<string, number>> {
  const rows = await db.all<{ state: string; n: number }>(
    'SELECT state, COUNT(*) AS n FROM notification_outbox WHERE feature_id = ? GROUP BY state',
    [featureId],
  );
  return Object.fromEntries(rows.map((row) => [row.state, Number(row.n)]));
}

/** A project with a live key, an idea and `followers` board users following it, written directly. */
async function ideaWithFollowers(db: Database, followers: number) {
  const projectId = newId('proj');
  await createProject(db, { id: projectId, name: 'Outbox', slug: projectId, monthlyQuota: null });
  const key = (await createApiKey(db, projectId, 'live', ALL_PUBLIC_SCOPES)).key;
  const feature = await insertFeature(
    db,
    { projectId, environment: 'live' },
    { title: 'Followed idea', description: 'Followed by many.', type: 'feature', status: 'open', internal: false },
  );
  const users: TestBoardUser[] = [];
  for (let i = 0; i < followers; i++) users.push(await createFollower(db, projectId, [feature.id]));
  return { projectId, key, featureId: feature.id, users };
}

/** Every follower got exactly one e-mail (checked again after a pause for late duplicates). */
async function exactlyOneEach(mailbox: Mailbox, users: TestBoardUser[]): Promise<void> {
  // Every user's first e-mail, in whatever order the processes send them. One wait for them all,
  // not 5 s per user in turn: on a loaded machine 120 e-mails take half a minute, and a user whose
  // e-mail came last timed out while the others were still arriving.
  const arrived = (user: TestBoardUser) => mailbox.messages.some((mail) => mail.to.includes(user.email));
  await mailbox.waitFor(() => users.every(arrived), 60_000);
  await sleep(800);
  for (const user of users) {
    const count = mailbox.messages.filter((mail) => mail.to.includes(user.email)).length;
    assert.equal(count, 1, `${user.email} got ${count} e-mails`);
  }
}

describe('outbox: retries with backoff, then gives up', () => {
  let smtp: SMTPServer;
  let server: TestServer;
  const accepted: string[] = [];
  const refusals = new Map<string, number>();

  before(async () => {
    // Refuses `flaky-…` twice, `doomed-…` always, accepts everyone else.
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData(stream, session, callback) {
        stream.resume();
        stream.on('end', () => {
          const rcpt = session.envelope.rcptTo[0]!.address;
          const refused = refusals.get(rcpt) ?? 0;
          if (rcpt.startsWith('doomed-') || (rcpt.startsWith('flaky-') && refused < 2)) {
            refusals.set(rcpt, refused + 1);
            const error = new Error('try again later') as Error & { responseCode: number };
            error.responseCode = 451;
            return callback(error);
          }
          accepted.push(rcpt);
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const { port } = smtp.server.address() as AddressInfo;
    server = await startTestServer({
      env: {
        SMTP_URL: `smtp://127.0.0.1:${port}`,
        OUTBOX_POLL_MS: '20',
        OUTBOX_RETRY_BASE_MS: '150',
        OUTBOX_MAX_ATTEMPTS: '3',
      },
    });
  });
  after(async () => {
    await server.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  it('a refused message is sent on a later attempt; one refused every time ends failed', async () => {
    const { projectId, key, featureId } = await ideaWithFollowers(server.db, 0);
    const flaky = await createFollower(server.db, projectId, [featureId], {
      email: `flaky-${newId('u')}@example.test`,
    });
    const doomed = await createFollower(server.db, projectId, [featureId], {
      email: `doomed-${newId('u')}@example.test`,
    });
    const started = Date.now();
    const patched = await new Api(server.baseUrl, key).patch(`/features/${featureId}`, { status: 'planned' });
    assert.equal(patched.status, 200, patched.text);

    await until('both messages settle', async () => {
      const s = await states(server.db, featureId);
      return s['sent'] === 1 && s['failed'] === 1;
    });
    // Two pauses (150 ms, then 300 ms) before the third attempt.
    assert.ok(Date.now() - started >= 450, `retried after ${Date.now() - started} ms`);
    assert.deepEqual(
      accepted.filter((address) => address === flaky.email),
      [flaky.email],
    );
    assert.equal(refusals.get(flaky.email), 2);
    assert.equal(refusals.get(doomed.email), 3, 'given up after OUTBOX_MAX_ATTEMPTS');
    const rows = await server.db.all<{ user_id: string; attempts: number; last_error: string | null; state: string }>(
      'SELECT user_id, attempts, last_error, state FROM notification_outbox WHERE feature_id = ?',
      [featureId],
    );
    const row = (userId: string) => rows.find((r) => r.user_id === userId)!;
    assert.equal(Number(row(flaky.id).attempts), 3);
    assert.equal(row(flaky.id).last_error, null);
    assert.equal(row(doomed.id).state, 'failed');
    assert.equal(Number(row(doomed.id).attempts), 3);
    assert.match(row(doomed.id).last_error ?? '', /try again later/);
    await sleep(500);
    assert.equal(refusals.get(doomed.email), 3, 'a failed message is not tried again');
  });
});

describe('outbox: kill -9 while sending loses nothing', () => {
  let database: TestDatabase;
  let db: Database;
  let mailbox: Mailbox;
  /** Sends to it hang until the kill. */
  let stall: StalledMailServer;
  const processes: ServerProcess[] = [];

  before(async () => {
    database = await createTestDatabase();
    mailbox = await startMailbox();
    stall = await startStalledMailServer();
  });
  after(async () => {
    for (const server of processes) await server.stop('SIGTERM');
    await stall.close();
    await mailbox.close();
    await db?.close();
    await database?.drop();
  });

  it('messages claimed by a killed process are sent by the next one after their lease, each once', async () => {
    const first = await startServerProcess(database, {
      SMTP_URL: stall.url,
      OUTBOX_POLL_MS: '20',
      OUTBOX_LEASE_SECONDS: '2',
    });
    processes.push(first);
    db = openDatabase({ databaseUrl: database.url, dataDir: database.dataDir });
    await migrate(db);
    // More followers than one claim takes (10): some stay pending, some are claimed.
    const { key, featureId, users } = await ideaWithFollowers(db, 14);
    const patched = await new Api(first.baseUrl, key).patch(`/features/${featureId}`, { status: 'planned' });
    assert.equal(patched.status, 200, patched.text);
    await until('the first process claims messages', async () => (await states(db, featureId))['sending'] === 10);
    await until('its send hangs at the mail server', async () => stall.connected());

    const exited = new Promise((resolve) => first.child.once('exit', resolve));
    first.child.kill('SIGKILL');
    await exited;
    processes.splice(processes.indexOf(first), 1);
    assert.deepEqual(await states(db, featureId), { sending: 10, pending: 4 });

    const second = await startServerProcess(database, { SMTP_URL: mailbox.url, OUTBOX_POLL_MS: '20' });
    processes.push(second);
    await exactlyOneEach(mailbox, users);
    assert.deepEqual(await states(db, featureId), { sent: 14 });
    const attempts = await db.all<{ attempts: number }>(
      'SELECT attempts FROM notification_outbox WHERE feature_id = ? ORDER BY attempts',
      [featureId],
    );
    // The pending ones went out at their first attempt, the ones the killed process held at their second.
    assert.deepEqual(
      attempts.map((row) => Number(row.attempts)),
      [...Array(4).fill(1), ...Array(10).fill(2)],
    );
  });
});

const skipUnlessPostgres =
  testDbKind() === 'postgres' ? false : 'needs PostgreSQL (SIGNPOST_TEST_DB=postgres): SQLite runs as one process';

describe('outbox: three server processes on one PostgreSQL database', { skip: skipUnlessPostgres }, () => {
  let database: TestDatabase;
  let db: Database;
  let mailbox: Mailbox;
  const processes: ServerProcess[] = [];

  before(async () => {
    database = await createTestDatabase('postgres');
    mailbox = await startMailbox();
    for (let i = 0; i < 3; i++) {
      processes.push(
        await startServerProcess(database, { SMTP_URL: mailbox.url, OUTBOX_POLL_MS: '10', LOG_LEVEL: 'debug' }),
      );
    }
    db = openDatabase({ databaseUrl: database.url, dataDir: database.dataDir });
    await migrate(db);
  });
  after(async () => {
    const codes = await Promise.all(processes.map((server) => server.stop('SIGTERM')));
    await mailbox.close();
    await db?.close();
    await database?.drop();
    assert.deepEqual(codes, [0, 0, 0], 'every process shut down cleanly');
  });

  it('each message goes out once, whichever process claims it', async () => {
    const ideas = [await ideaWithFollowers(db, 40), await ideaWithFollowers(db, 40), await ideaWithFollowers(db, 40)];
    // Three changes at once, each through another process.
    const answers = await Promise.all(
      ideas.map((idea, i) =>
        new Api(processes[i]!.baseUrl, idea.key).patch(`/features/${idea.featureId}`, { status: 'planned' }),
      ),
    );
    assert.deepEqual(
      answers.map((answer) => answer.status),
      [200, 200, 200],
    );
    await exactlyOneEach(
      mailbox,
      ideas.flatMap((idea) => idea.users),
    );
    assert.equal(mailbox.messages.length, 120);
    assert.equal(new Set(mailbox.messages.map((mail) => mail.messageId)).size, 120);
    for (const idea of ideas) assert.deepEqual(await states(db, idea.featureId), { sent: 40 });
    // The work was shared, and no message was claimed by two processes at once.
    const claims = processes.map((server) =>
      [...server.output().matchAll(/"claimed":\[([^\]]*)\]/g)].flatMap((match) => match[1]!.split(',')),
    );
    assert.ok(claims.filter((ids) => ids.length > 0).length >= 2, `claims per process: ${claims.map((c) => c.length)}`);
    assert.equal(claims.flat().length, 120, 'each message claimed once');
  });
});
