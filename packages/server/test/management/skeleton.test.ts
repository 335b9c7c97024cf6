import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.ts';
import { startMailbox, type Mailbox } from '../support/mailbox.ts';
import { managementApi, signUp } from '../support/management.ts';

describe('management API skeleton', () => {
  let server: TestServer;
  let mailbox: Mailbox;

  before(async () => {
    mailbox = await startMailbox();
    server = await startTestServer({ env: { SMTP_URL: mailbox.url } });
  });
  after(async () => {
    await server.close();
    await mailbox.close();
  });

  it('serves its own OpenAPI 3.1 document', async () => {
    const response = await fetch(`${server.origin}/api/v1/openapi.json`);
    assert.equal(response.status, 200);
    const doc = (await response.json()) as any;
    assert.equal(doc.openapi, '3.1.0');
    assert.ok(doc.paths['/me'].get);
    assert.ok(doc.paths['/auth/sign-up'].post);
    assert.deepEqual(doc.paths['/auth/sign-up'].post.security, []);
    assert.deepEqual(doc.paths['/me'].get.security, [{ personalAccessToken: [] }, { sessionCookie: [] }]);
  });

  it('serves its reference page without credentials', async () => {
    const response = await fetch(`${server.origin}/api/v1/docs/`, { redirect: 'manual' });
    assert.equal(response.status, 200);
    assert.match(await response.text(), /swagger/i);
  });

  it('answers 401 in the error model without credentials', async () => {
    const response = await managementApi(server.origin).get('/me');
    assert.equal(response.status, 401);
    assert.deepEqual(response.body, { error: 'Sign in required', code: 'Unauthorized' });
  });

  it('signs up, then signs in with a secure HTTP-only SameSite=Lax cookie and shows the account', async () => {
    const signedUp = await managementApi(server.origin).post('/auth/sign-up', {
      email: 'Skeleton@Example.com',
      password: 'a long enough password',
    });
    assert.equal(signedUp.status, 202);
    const response = await managementApi(server.origin).post('/auth/sign-in', {
      email: 'skeleton@example.com',
      password: 'a long enough password',
    });
    assert.equal(response.status, 200);
    const cookie = response.headers.getSetCookie().find((line) => line.startsWith('signpost_session='))!;
    assert.match(cookie, /HttpOnly/i);
    assert.match(cookie, /Secure/i);
    assert.match(cookie, /SameSite=Lax/i);
    assert.equal(response.body.account.email, 'skeleton@example.com');
    assert.equal(response.body.account.verified, false);
    const me = await signUp(server.origin);
    const read = await me.api.get('/me');
    assert.equal(read.status, 200);
    assert.equal(read.body.account.email, me.email);
  });
});
