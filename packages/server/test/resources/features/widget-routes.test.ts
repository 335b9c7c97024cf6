/**
 * The in-app widget's public API (issue 35): similar ideas for a title with votes and status, votes
 * and ideas of the person the host app's HS256 token names (forged, expired and other projects'
 * tokens refused), anonymous votes only where the board allows them, "my ideas" with "Shipped in",
 * and a bug's screenshot (type, size, magic bytes, scope) that only the team reads back.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SignJWT } from 'jose';
import { rotateSsoSecret } from '../../../src/resources/board/sso-secret.ts';
import { updateBoard } from '../../../src/resources/board/index.ts';
import { insertEntry } from '../../../src/resources/changelog/store.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import type { Api } from '../../support/api.ts';
import { managedProject, type ManagedProject } from '../../support/manage-fixtures.ts';

async function token(secret: string, claims: Record<string, unknown>, options: { age?: number; ttl?: number } = {}) {
  const now = Math.floor(Date.now() / 1000) - (options.age ?? 0);
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuedAt(now)
    .setExpirationTime(now + (options.ttl ?? 3600))
    .sign(new TextEncoder().encode(secret));
}

// The smallest PNG: 1x1, transparent.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

describe('widget public API', () => {
  let server: TestServer;
  let project: ManagedProject;
  let api: Api;
  let secret: string;
  let ada: string;
  let dark: string;
  let internal: string;

  const as = (value: string) => ({ headers: { 'x-signpost-user': value } });

  before(async () => {
    server = await startTestServer();
    project = await managedProject(server);
    api = project.live;
    secret = (await rotateSsoSecret(server.db, { secretKey: undefined }, project.projectId)).secret;
    ada = await token(secret, {
      sub: 'u-1',
      email: 'Ada@Example.com',
      name: 'Ada',
      company: { id: 'c1', name: 'ACME' },
    });
    dark = (
      await api.post('/features', { title: 'Dark mode for reports', description: 'A dark theme for the reports page.' })
    ).body.id;
    await api.post('/features', { title: 'Export to CSV', description: 'Download the table as a CSV file.' });
    internal = (
      await api.post('/features', {
        title: 'Dark mode internal plan',
        description: 'Internal notes about dark mode.',
        internal: true,
      })
    ).body.id;
    await api.patch(`/features/${dark}`, { status: 'planned' });
  });
  after(() => server.close());

  it('suggests public ideas like a typed title (typos too), with votes and status; internal ones stay hidden', async () => {
    const found = await api.get('/suggestions', { query: { title: 'drak mode please' } });
    assert.equal(found.status, 200);
    assert.deepEqual(
      found.body.ideas.map((i: { id: string }) => i.id),
      [dark],
    );
    assert.deepEqual(found.body.ideas[0], {
      id: dark,
      title: 'Dark mode for reports',
      status: 'planned',
      statusLabel: 'Planned',
      voteCount: 0,
      voted: false,
    });
    assert.ok(!JSON.stringify(found.body).includes(internal));
    assert.deepEqual((await api.get('/suggestions', { query: { title: 'the' } })).body, { ideas: [] });
    assert.equal((await api.get('/suggestions', { query: { title: 'x'.repeat(201) } })).status, 400);
    // Another project's key sees none of them.
    const other = await server.createProject();
    const foreign = await api.get('/suggestions', { key: other.liveKey, query: { title: 'dark mode' } });
    assert.deepEqual(foreign.body, { ideas: [] });
  });

  it('votes as the identified person (the board voter), once; the suggestion shows it as voted', async () => {
    const first = await api.put(`/me/votes/${dark}`, undefined, as(ada));
    assert.equal(first.status, 200);
    assert.deepEqual(first.body, { featureId: dark, voteCount: 1, voted: true });
    assert.equal((await api.put(`/me/votes/${dark}`, undefined, as(ada))).body.voteCount, 1);
    const user = await server.db.get<{ id: string }>('SELECT id FROM board_users WHERE project_id = ? AND email = ?', [
      project.projectId,
      'ada@example.com',
    ]);
    const votes = await server.db.all<{ voter_id: string }>('SELECT voter_id FROM votes WHERE feature_id = ?', [dark]);
    assert.deepEqual(
      votes.map((v) => v.voter_id),
      [`board:${user!.id}`],
    );
    const person = await server.db.get<{ name: string }>(
      'SELECT name FROM people WHERE project_id = ? AND board_user_id = ?',
      [project.projectId, user!.id],
    );
    assert.equal(person?.name, 'Ada');
    const seen = await api.get('/suggestions', { query: { title: 'dark mode' }, ...as(ada) });
    assert.equal(seen.body.ideas[0].voted, true);
    assert.equal(seen.body.ideas[0].voteCount, 1);
    assert.equal((await api.delete(`/me/votes/${dark}`, as(ada))).body.voteCount, 0);
    assert.equal((await api.put(`/me/votes/${internal}`, undefined, as(ada))).status, 404);
  });

  it('refuses forged, expired, unsigned and other projects’ tokens with 401, changing nothing', async () => {
    const forged = await token('not-the-secret-at-all-0123456789abcdef', { sub: 'u-1', email: 'ada@example.com' });
    const other = await server.createProject();
    const otherSecret = (await rotateSsoSecret(server.db, { secretKey: undefined }, other.projectId)).secret;
    const foreign = await token(otherSecret, { sub: 'u-1', email: 'ada@example.com' });
    const expired = await token(secret, { sub: 'u-1', email: 'ada@example.com' }, { age: 7200, ttl: 60 });
    const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(
      JSON.stringify({ sub: 'u-1', email: 'ada@example.com', iat: 1, exp: 9999999999 }),
    ).toString('base64url')}.`;
    for (const bad of [forged, foreign, expired, none, 'garbage']) {
      const vote = await api.put(`/me/votes/${dark}`, undefined, as(bad));
      assert.equal(vote.status, 401, bad);
      assert.equal(vote.body.error, 'Invalid identity token');
      assert.equal((await api.get('/me/ideas', as(bad))).status, 401);
      assert.equal((await api.get('/suggestions', { query: { title: 'dark' }, ...as(bad) })).status, 401);
    }
    assert.equal((await api.get(`/features/${dark}`)).body.voteCount, 0);
  });

  it('anonymous votes only where the board allows them', async () => {
    const visitor = { headers: { 'x-signpost-visitor': 'anon_0123456789abcdef' } };
    const refused = await api.put(`/me/votes/${dark}`, undefined, visitor);
    assert.equal(refused.status, 401);
    assert.match(refused.body.error, /Identity required/);
    assert.equal((await api.put(`/me/votes/${dark}`)).status, 401);
    await updateBoard(server.db, project.projectId, { anonymousVotes: true });
    assert.equal((await api.put(`/me/votes/${dark}`, undefined, visitor)).body.voteCount, 1);
    assert.equal(
      (await api.get('/suggestions', { query: { title: 'dark mode' }, ...visitor })).body.ideas[0].voted,
      true,
    );
    assert.equal((await api.delete(`/me/votes/${dark}`, visitor)).body.voteCount, 0);
    await updateBoard(server.db, project.projectId, { anonymousVotes: false });
  });

  it('files ideas as the person and lists them with status, "Shipped in" when a published entry ships it', async () => {
    const grace = await token(secret, { sub: 'u-2', email: 'grace@example.com', name: 'Grace' });
    assert.deepEqual(
      (await api.get('/me/ideas', as(grace))).body,
      { ideas: [] },
      'unknown yet: nothing, nothing written',
    );
    assert.equal((await api.get('/me/ideas')).status, 401);
    const filed = await api.post(
      '/me/ideas',
      { title: 'Calendar sync', description: 'Sync my events with Outlook.', channel: 'widget' },
      as(grace),
    );
    assert.equal(filed.status, 201);
    const bug = await api.post(
      '/me/ideas',
      { title: 'Export crashes', description: 'The export button crashes the page.', type: 'bug', channel: 'widget' },
      as(grace),
    );
    await api.post('/features', { title: 'Not hers', description: 'Filed by someone else entirely.' });
    await api.patch(`/features/${filed.body.id}`, { status: 'done' });
    await insertEntry(server.db, project.projectId, {
      summary: 'Calendar sync is here',
      description: '<p>Outlook and Google.</p>',
      featureId: filed.body.id,
      statusKey: 'new',
      published: true,
    });
    const mine = await api.get('/me/ideas', as(grace));
    assert.equal(mine.status, 200);
    assert.deepEqual(
      mine.body.ideas.map((i: { title: string; statusLabel: string; shippedIn: { summary: string } | null }) => [
        i.title,
        i.statusLabel,
        i.shippedIn?.summary ?? null,
      ]),
      [
        ['Export crashes', 'New', null],
        ['Calendar sync', 'Done', 'Calendar sync is here'],
      ],
    );
    assert.equal(mine.body.ideas[0].id, bug.body.id);
    const row = await server.db.get<{ contact_email: string }>('SELECT contact_email FROM features WHERE id = ?', [
      filed.body.id,
    ]);
    assert.equal(row?.contact_email, 'grace@example.com');
    assert.equal((await api.post('/me/ideas', { title: 'No one', description: 'Without a token.' })).status, 401);
  });

  describe('screenshots', () => {
    let bugId: string;
    const upload = (featureId: string, body: Buffer, type = 'image/png', key = project.liveKey) =>
      fetch(`${server.baseUrl}/features/${featureId}/attachments`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': type },
        body: new Uint8Array(body),
      });

    before(async () => {
      bugId = (
        await api.post('/features', {
          title: 'Chart is blank',
          description: 'The chart shows nothing after login.',
          type: 'bug',
          channel: 'widget',
          metadata: { url: 'https://app.example.com/reports', release: 'web@1.2.3', errorEventId: 'evt_123' },
        })
      ).body.id;
    });

    it('stores a PNG on the bug; the team lists it and reads the image back; the metadata is kept', async () => {
      const created = await upload(bugId, PNG);
      assert.equal(created.status, 201);
      const attachment = (await created.json()) as { id: string; size: number; contentType: string };
      assert.equal(attachment.size, PNG.byteLength);
      assert.equal(attachment.contentType, 'image/png');
      const list = await project.member.get(`/projects/${project.projectId}/features/${bugId}/attachments`);
      assert.equal(list.status, 200);
      assert.deepEqual(
        list.body.attachments.map((a: { id: string }) => a.id),
        [attachment.id],
      );
      const image = await fetch(
        `${server.origin}/api/v1/projects/${project.projectId}/features/${bugId}/attachments/${attachment.id}`,
        { headers: project.member.headers },
      );
      assert.equal(image.status, 200);
      assert.equal(image.headers.get('content-type'), 'image/png');
      assert.equal(image.headers.get('x-content-type-options'), 'nosniff');
      assert.deepEqual(Buffer.from(await image.arrayBuffer()), PNG);
      const feature = await project.member.get(`/projects/${project.projectId}/features/${bugId}`);
      assert.deepEqual(feature.body.metadata, {
        url: 'https://app.example.com/reports',
        release: 'web@1.2.3',
        errorEventId: 'evt_123',
      });
    });

    it('refuses other types, bytes that are not the claimed image, too large bodies, foreign and internal items', async () => {
      assert.equal((await upload(bugId, PNG, 'image/svg+xml')).status, 415);
      assert.equal((await upload(bugId, Buffer.from('<html>not an image</html>'), 'image/png')).status, 400);
      assert.equal((await upload(bugId, PNG, 'image/jpeg')).status, 400);
      const big = Buffer.alloc(2 * 1024 * 1024 + 10);
      PNG.copy(big);
      assert.equal((await upload(bugId, big)).status, 413);
      const other = await server.createProject();
      assert.equal((await upload(bugId, PNG, 'image/png', other.liveKey)).status, 404);
      assert.equal((await upload(internal, PNG)).status, 404);
      assert.equal((await upload('feat_missing', PNG)).status, 404);
      const count = await server.db.get<{ n: number | string }>(
        'SELECT COUNT(*) AS n FROM feature_attachments WHERE feature_id = ?',
        [bugId],
      );
      assert.equal(Number(count?.n), 1);
      // The public API never serves attachments.
      assert.equal((await api.get(`/features/${bugId}/attachments`, { unchecked: true })).status, 404);
    });

    it('keeps at most three per item', async () => {
      assert.equal((await upload(bugId, PNG)).status, 201);
      assert.equal((await upload(bugId, PNG)).status, 201);
      const fourth = await upload(bugId, PNG);
      assert.equal(fourth.status, 400);
    });
  });
});
