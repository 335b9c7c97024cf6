/**
 * Upgrading to people (migration 202612120100): a database with board users, votes (a board
 * user's and an app's voter id) and contact e-mails from before is migrated by a starting server;
 * each becomes one person (a board user and a contact e-mail with the same address are one), and
 * a later vote by a known voter id finds its person instead of making another.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ALL_PUBLIC_SCOPES, createApiKey, createProject } from '../../../src/resources/projects/index.ts';
import { createTestDatabase, type TestDatabase } from '../../support/database.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { Api } from '../../support/api.ts';
import { migratedUpTo } from '../../support/upgrade-suite.ts';

const MIGRATION = '202612120100_people';
const at = '2026-11-01T10:00:00.000Z';

describe(`upgrade: people from existing voters, board users and contact e-mails (${MIGRATION})`, () => {
  let database: TestDatabase;
  let server: TestServer;
  let live: Api;

  before(async () => {
    database = await createTestDatabase();
    const db = await migratedUpTo(database, MIGRATION);
    await createProject(db, { id: 'upg', name: 'Upgraded', slug: 'upg', monthlyQuota: null });
    live = new Api('', (await createApiKey(db, 'upg', 'live', ALL_PUBLIC_SCOPES)).key);
    await db.run(
      `INSERT INTO board_users (id, project_id, email, name, external_id, locale, created_at)
       VALUES ('bu_old', 'upg', 'ada@example.com', 'Ada', 'sub-1', 'en', ?)`,
      [at],
    );
    const feature = `INSERT INTO features (id, project_id, environment, title, description, type, status, internal,
      contact_email, vote_count, comment_count, created_at, updated_at)
      VALUES (?, 'upg', 'live', ?, 'Described at length.', 'feature', 'open', 0, ?, ?, 0, ?, ?)`;
    await db.run(feature, ['feat_a', 'Idea by Ada', 'ADA@example.com', 2, at, at]);
    await db.run(feature, ['feat_b', 'Idea by Bo', 'bo@example.com', 1, at, at]);
    for (const [featureId, voterId] of [
      ['feat_a', 'board:bu_old'],
      ['feat_a', 'app-1'],
      ['feat_b', 'app-1'],
    ] as const) {
      await db.run('INSERT INTO votes (feature_id, voter_id, created_at) VALUES (?, ?, ?)', [featureId, voterId, at]);
    }
    await db.close();
    server = await startTestServer({ database });
    live = new Api(server.baseUrl, live.key);
  });
  after(async () => {
    await server?.close();
    await database?.drop();
  });

  it('makes one person per voter, board user and address, and finds them again on the next vote', async () => {
    const people = await server.db.all<{ id: string; email: string | null; name: string | null }>(
      "SELECT id, email, name FROM people WHERE project_id = 'upg' ORDER BY COALESCE(email, '')",
    );
    assert.deepEqual(
      people.map((p) => [p.email, p.name]),
      [
        [null, null],
        ['ada@example.com', 'Ada'],
        ['bo@example.com', null],
      ],
    );
    const owner = async (kind: string, value: string) =>
      (await server.db.get<{ person_id: string }>(
        "SELECT person_id FROM person_aliases WHERE project_id = 'upg' AND kind = ? AND value = ?",
        [kind, value],
      ))!.person_id;
    const ada = await owner('board_user', 'bu_old');
    assert.equal(await owner('voter_id', 'board:bu_old'), ada);
    assert.equal(await owner('email', 'ada@example.com'), ada, 'the contact e-mail is the board user');
    const app = await owner('voter_id', 'app-1');

    const created = await live.post('/features', { title: 'A third idea', description: 'Described well enough.' });
    assert.equal((await live.put(`/features/${created.body.id}/votes/app-1`)).status, 200);
    assert.equal((await live.put(`/features/${created.body.id}/votes/app-2`)).status, 200);
    const count = await server.db.get<{ n: number }>("SELECT COUNT(*) AS n FROM people WHERE project_id = 'upg'");
    assert.equal(Number(count!.n), 4, 'app-1 is found again; app-2 is new');
    assert.equal(await owner('voter_id', 'app-1'), app);
  });
});
