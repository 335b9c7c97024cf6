/**
 * Sign-in throttling that slows guessing without locking the owner out, sign-up that does not
 * tell whether an address has an account, and the password strength check. Clients are told
 * apart by X-Forwarded-For, which the server believes because it runs with TRUST_PROXY=true (as
 * behind a reverse proxy); each test uses addresses of its own.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { testDbKind } from '../../support/database.ts';
import {
  createTestDatabase,
  startServerProcess,
  startTestServer,
  type ServerProcess,
  type TestDatabase,
  type TestServer,
} from '../../support/server.ts';
import { startMailbox, type Mailbox } from '../../support/mailbox.ts';
import { managementApi, signIn, signUp, uniqueEmail } from '../../support/management.ts';

const PASSWORD = 'correct horse battery staple';

/**
 * The most wrong guesses a burst lasting `seconds` can have let through: the five free failures,
 * the one that starts the delay (1 s), one more if the burst outlasted that delay (allowed
 * whatever its length, as before), and one more each time a further delay (2, 4 … s) ran out
 * before the burst ended. A quiet machine answers a burst well within the first delay (6 or 7);
 * a loaded one (the whole test run on 2 cores) can take seconds, and the throttle is still exact.
 */
function mostLetThrough(seconds: number): number {
  let allowed = 7;
  for (let waited = 1, delay = 2; waited + delay <= seconds; waited += delay, delay *= 2) allowed++;
  return allowed;
}

/** Seconds since `started` (a `performance.now()`). */
const secondsSince = (started: number) => (performance.now() - started) / 1000;

/** Runs `burst` and returns its answers with how long it took, in seconds. */
async function timed<T>(burst: () => Promise<T>): Promise<{ answers: T; seconds: number }> {
  const started = performance.now();
  const answers = await burst();
  return { answers, seconds: secondsSince(started) };
}

describe('accounts: throttling, sign-up privacy and password strength', () => {
  let server: TestServer;
  let mailbox: Mailbox;

  before(async () => {
    mailbox = await startMailbox();
    server = await startTestServer({ env: { SMTP_URL: mailbox.url, TRUST_PROXY: 'true' } });
  });
  after(async () => {
    await server.close();
    await mailbox.close();
  });

  const from = (client: string) => managementApi(server.origin).withHeaders({ 'x-forwarded-for': client });
  const signInFrom = (client: string, email: string, password: string) =>
    from(client).post('/auth/sign-in', { email, password });

  it("lets the owner in after an attacker's 20 wrong tries, and slows the attacker", async () => {
    const owner = await signUp(server.origin);
    const attacker = '203.0.113.7';
    // All at once: each attempt is claimed in its own transaction, so the burst cannot slip
    // past the free failures before the first one is written.
    const { answers: tries, seconds } = await timed(() =>
      Promise.all(Array.from({ length: 20 }, (_, i) => signInFrom(attacker, owner.email, `wrong guess number ${i}`))),
    );
    // The owner, from their own client, gets in at once.
    const ownerIn = await signInFrom('198.51.100.1', owner.email, owner.password);
    assert.equal(ownerIn.status, 200, ownerIn.text);
    assert.equal(ownerIn.body.account.id, owner.account.id);

    const statuses = tries.map((response) => response.status);
    assert.ok(
      statuses.every((status) => status === 401 || status === 429),
      statuses.join(),
    );
    const wrong = statuses.filter((status) => status === 401).length;
    // Five free failures, one that starts the delay, and one more for each delay the burst outlasted.
    assert.ok(
      wrong >= 6 && wrong <= mostLetThrough(seconds),
      `failures let through: ${wrong} in ${seconds.toFixed(2)} s`,
    );
    const slowed = tries.find((response) => response.status === 429)!;
    assert.ok(Number(slowed.headers.get('retry-after')) >= 1);
    assert.match(slowed.body.error, /Too many sign-in attempts/);

    // From the attacker's client, once its delay has run out, one more wrong guess starts a
    // longer one; the right password then waits it out too, and works after it. The delay runs
    // from the burst's last failure, which on a loaded machine may have been written after every
    // refusal was answered (a longer delay than any refusal said): so the guess waits out the
    // refusals' longest Retry-After, and then any refusal it still meets (a refusal counts no failure).
    const retryAfter = (response: { headers: Headers }) => Number(response.headers.get('retry-after'));
    await sleep(Math.max(...tries.filter((response) => response.status === 429).map(retryAfter)) * 1000 + 100);
    let guessed = performance.now();
    let guess = await signInFrom(attacker, owner.email, 'one more wrong guess');
    for (let refusals = 0; guess.status === 429 && refusals < 3; refusals++) {
      await sleep(retryAfter(guess) * 1000 + 100);
      guessed = performance.now();
      guess = await signInFrom(attacker, owner.email, 'one more wrong guess');
    }
    assert.equal(guess.status, 401);
    const refused = await signInFrom(attacker, owner.email, owner.password);
    assert.equal(refused.status, 429);
    const wait = Number(refused.headers.get('retry-after'));
    // The delay the guess started is at least 2 s; what is left of it when the refusal is answered
    // is that less the time since the guess was sent (a second or more on a loaded machine), and
    // Retry-After rounds it up: 2 s when the refusal came within a second, as on a quiet machine.
    const since = secondsSince(guessed);
    assert.ok(
      wait >= Math.max(1, Math.ceil(2 - since)) && wait <= 60,
      `Retry-After ${wait}, ${since.toFixed(2)} s after the guess`,
    );
    await sleep(wait * 1000 + 100);
    assert.equal((await signInFrom(attacker, owner.email, owner.password)).status, 200);
  });

  it('grows the delay with each further failure of the pair', async () => {
    const owner = await signUp(server.origin);
    const attacker = '203.0.113.8';
    // Guesses until one is refused, counting the failures: each refusal's Retry-After is
    // 2^(failures − 6) s. Five failures are free, then 1 s after the sixth; on a slow or loaded
    // machine a sign-in can take as long as a delay, so a delay may run out before the next guess
    // and a further failure comes first (then the delay doubles again, which is what is tested).
    let failures = 0;
    const guessUntilRefused = async () => {
      for (let tries = 0; tries < 4; tries++) {
        const response = await signInFrom(attacker, owner.email, `guess ${failures}`);
        if (response.status === 429) return Number(response.headers.get('retry-after'));
        assert.equal(response.status, 401);
        failures++;
      }
      assert.fail(`no refusal after ${failures} failures`);
    };
    for (let i = 0; i < 5; i++) {
      assert.equal((await signInFrom(attacker, owner.email, `guess ${failures}`)).status, 401);
      failures++;
    }
    // Retry-After is what is left of the delay, rounded up: the whole delay, or less when the
    // refusal came late on a loaded machine (seen: 1 s left of 2), so at least half of it.
    const withinDelay = (retryAfter: number) => {
      const delay = 2 ** (failures - 6);
      assert.ok(
        retryAfter <= delay && retryAfter >= delay / 2,
        `Retry-After ${retryAfter} s for a delay of ${delay} s`,
      );
    };
    const first = await guessUntilRefused();
    assert.ok(failures >= 6, `refused after ${failures} failures`);
    withinDelay(first);
    await sleep(first * 1000 + 100);
    assert.equal((await signInFrom(attacker, owner.email, 'one more guess')).status, 401);
    failures++;
    // A further failure past the first delay: the refusal answers with the delay of every failure so far.
    const second = await guessUntilRefused();
    withinDelay(second);
  });

  it('counts an IPv6 client by its /64, so rotating addresses inside it does not help', async () => {
    const owner = await signUp(server.origin);
    for (let i = 0; i < 6; i++)
      assert.equal((await signInFrom(`2001:db8:7:8::${i + 1}`, owner.email, `guess ${i}`)).status, 401);
    // Refused at once, or after one more failure if the 1 s delay ran out on a slow machine.
    let other = await signInFrom('2001:db8:7:8:ffff::99', owner.email, 'guess');
    if (other.status === 401) other = await signInFrom('2001:db8:7:8:ffff::98', owner.email, 'guess');
    assert.equal(other.status, 429);
    assert.equal((await signInFrom('2001:db8:7:9::1', owner.email, owner.password)).status, 200);
  });

  it('slows a client that sprays many addresses, and only that client', async () => {
    const victim = await signUp(server.origin);
    const sprayer = '192.0.2.50';
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++)
      statuses.push((await signInFrom(sprayer, uniqueEmail(`spray${i}`), 'Summer2024!')).status);
    // 20 free failures, then doubling delays: nearly every later try is refused (one or two may
    // pass on a slow machine where a delay ran out between two tries).
    assert.deepEqual(statuses.slice(0, 21), Array(21).fill(401));
    assert.ok(statuses.slice(21).filter((status) => status === 429).length >= 7, statuses.join());
    // Even a right password is refused to the sprayer while it waits: no oracle.
    const right = await signInFrom(sprayer, victim.email, victim.password);
    assert.equal(right.status, 429);
    assert.ok(Number(right.headers.get('retry-after')) >= 1);
    assert.equal((await signInFrom('192.0.2.51', victim.email, victim.password)).status, 200);
  });

  it('the OAuth sign-in page counts on the same throttle', async () => {
    const owner = await signUp(server.origin);
    const attacker = '203.0.113.9';
    for (let i = 0; i < 6; i++) assert.equal((await signInFrom(attacker, owner.email, `guess ${i}`)).status, 401);
    const postPage = () =>
      fetch(`${server.origin}/oauth/sign-in`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': attacker },
        body: new URLSearchParams({ email: owner.email, password: 'guess', return_to: '/oauth/authorize' }).toString(),
      });
    // Refused at once, or (when the 1 s delay ran out on a slow machine) after one more failure.
    let page = await postPage();
    if (page.status === 401) page = await postPage();
    assert.equal(page.status, 429);
    assert.ok(Number(page.headers.get('retry-after')) >= 1);
    assert.match(await page.text(), /Too many sign-in attempts/);
    const elsewhere = await fetch(`${server.origin}/oauth/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': '198.51.100.9' },
      body: new URLSearchParams({
        email: owner.email,
        password: owner.password,
        return_to: '/oauth/authorize',
      }).toString(),
      redirect: 'manual',
    });
    assert.equal(elsewhere.status, 303);
  });

  it('answers sign-up the same for a new and a taken address; the owner is told by e-mail', async () => {
    const owner = await signUp(server.origin);
    const fresh = uniqueEmail('fresh');
    const taken = await from('198.51.100.20').post('/auth/sign-up', {
      email: owner.email,
      password: 'an intruder password 42',
    });
    const created = await from('198.51.100.21').post('/auth/sign-up', {
      email: fresh,
      password: 'a fresh long password 42',
    });
    assert.equal(taken.status, 202);
    assert.equal(taken.status, created.status);
    assert.deepEqual(taken.body, created.body);
    assert.deepEqual(taken.body, { message: 'Check your e-mail to finish signing up, then sign in' });
    assert.equal(taken.headers.get('set-cookie'), null);
    assert.equal(created.headers.get('set-cookie'), null);

    const notice = await mailbox.waitFor(
      (mail) => mail.to.includes(owner.email) && /tried to sign up/.test(mail.subject),
    );
    assert.match(notice.text, /already has one/);
    assert.match(notice.text, /reset/);
    assert.ok(notice.links.length > 0);
    await mailbox.waitFor((mail) => mail.to.includes(fresh) && /Verify/.test(mail.subject));

    // No second account: the intruder's password does not sign in; the owner's still does.
    assert.equal((await signInFrom('198.51.100.20', owner.email, 'an intruder password 42')).status, 401);
    assert.equal((await signIn(server.origin, owner.email, owner.password)).account.id, owner.account.id);
    assert.equal((await signIn(server.origin, fresh, 'a fresh long password 42')).account.verified, false);
  });

  it('refuses guessable passwords on sign-up, reset and change, naming the field', async () => {
    const email = uniqueEmail('weak');
    for (const password of ['password123!', 'qwertyuiop12', 'P@ssw0rd2024', `${email.split('@')[0]}`]) {
      const refused = await managementApi(server.origin).post('/auth/sign-up', { email, password });
      assert.equal(refused.status, 400, password);
      assert.deepEqual(
        refused.body.details.map((d: { field: string }) => d.field),
        ['password'],
      );
      assert.match(refused.body.error, /too easy to guess/);
    }
    assert.equal((await signInFrom('198.51.100.30', email, 'password123!')).status, 401);

    const user = await signUp(server.origin, { password: PASSWORD });
    const change = await user.api.post('/me/password', { currentPassword: PASSWORD, newPassword: 'letmein2024!' });
    assert.equal(change.status, 400);
    assert.deepEqual(
      change.body.details.map((d: { field: string }) => d.field),
      ['newPassword'],
    );
    assert.equal((await signIn(server.origin, user.email, PASSWORD)).account.id, user.account.id);

    await managementApi(server.origin).post('/auth/password-reset', { email: user.email });
    const mail = await mailbox.waitFor((m) => m.to.includes(user.email) && /Reset/.test(m.subject));
    const token = new URL(mail.links.find((link) => link.includes('reset-password?token='))!).searchParams.get(
      'token',
    )!;
    const reset = await managementApi(server.origin).post('/auth/reset-password', { token, password: 'iloveyou2020' });
    assert.equal(reset.status, 400);
    assert.deepEqual(
      reset.body.details.map((d: { field: string }) => d.field),
      ['password'],
    );
    // The link is not used up by a refused password.
    assert.equal(
      (await managementApi(server.origin).post('/auth/reset-password', { token, password: 'a brand new password' }))
        .status,
      200,
    );
  });
});

describe('accounts: the sign-in throttle across two server processes', {
  skip: testDbKind() === 'postgres' ? false : 'needs PostgreSQL: SQLite runs as one process',
}, () => {
  let database: TestDatabase;
  let servers: ServerProcess[] = [];

  before(async () => {
    database = await createTestDatabase();
    // The first process migrates; the second starts on the migrated database.
    servers.push(await startServerProcess(database, { TRUST_PROXY: 'true', LOG_LEVEL: 'info' }));
    servers.push(await startServerProcess(database, { TRUST_PROXY: 'true', LOG_LEVEL: 'info' }));
  });
  after(async () => {
    for (const server of servers) await server.stop();
    servers = [];
    await database?.drop();
  });

  it('counts a burst spread over both processes exactly', async () => {
    const owner = await signUp(servers[0]!.origin);
    const attacker = '203.0.113.77';
    const { answers: tries, seconds } = await timed(() =>
      Promise.all(
        Array.from({ length: 24 }, (_, i) =>
          managementApi(servers[i % 2]!.origin)
            .withHeaders({ 'x-forwarded-for': attacker })
            .post('/auth/sign-in', { email: owner.email, password: `guess ${i}` }),
        ),
      ),
    );
    const wrong = tries.filter((response) => response.status === 401).length;
    assert.equal(wrong + tries.filter((response) => response.status === 429).length, 24);
    // Five free failures and the one that starts the delay (more only for delays the burst outlasted).
    assert.ok(
      wrong >= 6 && wrong <= mostLetThrough(seconds),
      `failures let through: ${wrong} in ${seconds.toFixed(2)} s`,
    );
    const ownerIn = await managementApi(servers[1]!.origin)
      .withHeaders({ 'x-forwarded-for': '198.51.100.77' })
      .post('/auth/sign-in', { email: owner.email, password: owner.password });
    assert.equal(ownerIn.status, 200);
  });
});
