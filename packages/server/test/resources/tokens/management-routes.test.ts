import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { managementApi, signUp } from '../../support/management.ts';

describe('personal access tokens', () => {
  let server: TestServer;

  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it('are created by a signed-in account, shown once, stored hashed, listed by prefix', async () => {
    const user = await signUp(server.origin);
    const created = await user.api.post('/me/tokens', { name: 'CLI on my laptop', expiresInDays: 30 });
    assert.equal(created.status, 201);
    const token: string = created.body.token;
    assert.match(token, /^sp_pat_[A-Za-z0-9]{44}$/);
    assert.ok(token.startsWith(created.body.tokenInfo.prefix));
    assert.equal(created.body.tokenInfo.name, 'CLI on my laptop');
    assert.ok(created.body.tokenInfo.expiresAt);

    const listed = await user.api.get('/me/tokens');
    assert.equal(listed.status, 200);
    assert.equal(listed.body.tokens.length, 1);
    assert.ok(!listed.text.includes(token), 'the listing never shows the token');
    assert.equal(listed.body.tokens[0].prefix, created.body.tokenInfo.prefix);

    const rows = await server.db.all<Record<string, unknown>>('SELECT * FROM personal_access_tokens');
    assert.ok(!JSON.stringify(rows).includes(token.slice(19)), 'only a hash of the secret part is stored');

    const bearer = managementApi(server.origin).withHeaders({ authorization: `Bearer ${token}` });
    const me = await bearer.get('/me');
    assert.equal(me.status, 200);
    assert.equal(me.body.account.id, user.account.id);
    // Bearer writes need no CSRF header.
    assert.equal((await bearer.patch('/me', { name: 'Script' })).status, 200);
    const lastUsed = (await user.api.get('/me/tokens')).body.tokens[0].lastUsedAt;
    assert.ok(lastUsed);
    // Written at most once a minute, not on every request (each would be a commit).
    assert.equal((await bearer.get('/me')).status, 200);
    assert.equal((await user.api.get('/me/tokens')).body.tokens[0].lastUsedAt, lastUsed);
    await server.db.run('UPDATE personal_access_tokens SET last_used_at = ?', ['2020-01-01T00:00:00.000Z']);
    assert.equal((await bearer.get('/me')).status, 200);
    assert.ok((await user.api.get('/me/tokens')).body.tokens[0].lastUsedAt > '2026');

    // A token cannot mint more tokens.
    const minted = await bearer.post('/me/tokens', { name: 'another' });
    assert.equal(minted.status, 403);
  });

  it('stop working at once when revoked, and when expired', async () => {
    const user = await signUp(server.origin);
    const first = (await user.api.post('/me/tokens', { name: 'one' })).body;
    const second = (await user.api.post('/me/tokens', { name: 'two' })).body;
    const as = (token: string) => managementApi(server.origin).withHeaders({ authorization: `Bearer ${token}` });
    assert.equal((await as(first.token).get('/me')).status, 200);

    const revoked = await user.api.delete(`/me/tokens/${first.tokenInfo.id}`);
    assert.equal(revoked.status, 200);
    assert.ok(revoked.body.revokedAt);
    const refused = await as(first.token).get('/me');
    assert.equal(refused.status, 401);
    assert.deepEqual(refused.body, { error: 'Invalid personal access token', code: 'Unauthorized' });

    await server.db.run("UPDATE personal_access_tokens SET expires_at = '2000-01-01T00:00:00.000Z' WHERE id = ?", [
      second.tokenInfo.id,
    ]);
    assert.equal((await as(second.token).get('/me')).status, 401);

    // Another account cannot revoke (or see) them.
    const other = await signUp(server.origin);
    assert.equal((await other.api.delete(`/me/tokens/${second.tokenInfo.id}`)).status, 404);
    assert.equal((await other.api.get('/me/tokens')).body.tokens.length, 0);
  });

  it('refuses malformed tokens and API keys with a 401', async () => {
    const api = managementApi(server.origin);
    const wrong = await api.get('/me', { headers: { authorization: `Bearer sp_pat_${'x'.repeat(44)}` } });
    assert.equal(wrong.status, 401);
    const key = await api.get('/me', { headers: { authorization: `Bearer ${server.demoKey}` } });
    assert.equal(key.status, 401);
    assert.match(key.body.error, /public API/);
    const basic = await api.get('/me', { headers: { authorization: 'Basic Zm9vOmJhcg==' } });
    assert.equal(basic.status, 401);
  });
});
