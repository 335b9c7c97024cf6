import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { signUp } from '../../support/management.ts';

describe('the first account', () => {
  let server: TestServer;

  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it('is the only instance administrator even when several sign up at the same moment', async () => {
    const accounts = await Promise.all(
      Array.from({ length: 6 }, (_, i) => signUp(server.origin, { name: `Racer ${i}` })),
    );
    const admins = accounts.filter((a) => a.account.admin);
    assert.equal(admins.length, 1);
    const rows = await server.db.all<{ n: number }>('SELECT COUNT(*) AS n FROM accounts WHERE is_admin = 1');
    assert.equal(Number(rows[0]!.n), 1);
    // Its team owns the seeded projects; nobody else's does.
    const owners = await server.db.all<{ team_id: string | null }>(
      'SELECT DISTINCT team_id FROM projects WHERE id IN (?, ?)',
      [server.platformProjectId, server.demoProjectId],
    );
    assert.equal(owners.length, 1);
    assert.ok(owners[0]!.team_id);
  });
});
