/**
 * The import writes its people, vote values and a second run's comparisons in batches (issue 36:
 * a 10,000-idea Canny import within a minute on PostgreSQL); these are the rules that one row at
 * a time kept and batches must keep too, through the management API:
 *
 * - people matched by e-mail whatever its case (a person the project knows from a contact
 *   address, one signed in through SSO), or made; a second source id with an address seen
 *   earlier in the same file is the same person; a known name is kept, a missing one filled,
 *   the first sighting moved earlier;
 * - an imported vote by a person of a company with a revenue gives the idea its value;
 * - a second run changes nothing; a third one, after the export changed an idea and a comment and
 *   the team deleted an idea here, updates those two and imports the deleted idea anew, with its
 *   vote and comment, and touches nothing else; no e-mail for any of it.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { updateBoard } from '../../../src/resources/board/index.ts';
import { rotateSsoSecret } from '../../../src/resources/board/sso-secret.ts';
import { managedProject } from '../../support/manage-fixtures.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { importHoldings, uploadRaw } from '../../support/imports.ts';
import { ssoToken } from '../../support/sso.ts';

const user = (id: string, email?: string, name?: string) => ({
  id,
  ...(email ? { email } : {}),
  ...(name ? { name } : {}),
});

/** A Canny API dump of three ideas; `changed` edits one idea's title and one comment's body. */
function dump(changed = false) {
  return {
    users: [
      { ...user('u1', 'ADA@example.com', 'Ada Lovelace'), created: '2019-01-01T00:00:00.000Z' },
      { ...user('u2', 'hank@globex.test', 'H. Scorpio'), created: '2020-01-01T00:00:00.000Z' },
      { ...user('u3', 'grace@example.org', 'Grace Hopper'), created: '2020-02-01T00:00:00.000Z' },
      // The same address under a second id (two accounts there): one person here.
      { ...user('u4', 'Grace@Example.org', 'Grace H.'), created: '2020-03-01T00:00:00.000Z' },
    ],
    posts: [
      {
        id: 'p1',
        title: changed ? 'Volcano lair integrations, renamed there' : 'Volcano lair integrations',
        details: 'For the quarterly review.',
        status: 'open',
        created: '2021-01-01T00:00:00.000Z',
        author: user('u3'),
      },
      {
        id: 'p2',
        title: 'Punch cards as an export',
        details: 'Old habits.',
        status: 'planned',
        created: '2021-02-01T00:00:00.000Z',
        author: user('u1'),
      },
      {
        id: 'p3',
        title: 'A kernel mailing list digest',
        details: 'Weekly.',
        status: 'open',
        created: '2021-03-01T00:00:00.000Z',
        // An author with no address: a person by their source id.
        author: user('u5', undefined, 'Linus'),
      },
    ],
    votes: [
      { id: 'v1', post: { id: 'p1' }, voter: user('u2'), created: '2021-04-01T00:00:00.000Z' },
      { id: 'v2', post: { id: 'p1' }, voter: user('u1'), created: '2021-04-02T00:00:00.000Z' },
      { id: 'v3', post: { id: 'p2' }, voter: user('u3'), created: '2021-04-03T00:00:00.000Z' },
      { id: 'v4', post: { id: 'p2' }, voter: user('u4'), created: '2021-04-04T00:00:00.000Z' },
      { id: 'v5', post: { id: 'p3' }, voter: user('u5'), created: '2021-04-05T00:00:00.000Z' },
    ],
    comments: [
      {
        id: 'c1',
        post: { id: 'p1' },
        value: changed ? 'Needed by March.' : 'Needed by spring.',
        author: user('u1'),
        created: '2021-05-01T00:00:00.000Z',
      },
      {
        id: 'c2',
        post: { id: 'p3' },
        value: 'Plain text, please.',
        author: user('u5'),
        created: '2021-05-02T00:00:00.000Z',
      },
    ],
  };
}

const body = (changed?: boolean) => new TextEncoder().encode(JSON.stringify(dump(changed)));

describe('imports: batched writes keep the rules of one row at a time', () => {
  let server: TestServer;

  before(async () => {
    server = await startTestServer();
  });
  after(async () => server?.close());

  it('matches and makes people, values votes, and updates on later runs only what changed', async () => {
    const project = await managedProject(server);
    const base = `/projects/${project.projectId}`;
    // Hank signs in through SSO, a person of a company with a monthly revenue of 9000.
    await updateBoard(server.db, project.projectId, { enabled: true });
    const { secret } = await rotateSsoSecret(server.db, { secretKey: undefined }, project.projectId);
    const token = await ssoToken(secret, {
      sub: 'globex-1',
      email: 'hank@globex.test',
      name: 'Hank Scorpio',
      company: { id: 'globex', name: 'Globex', monthlyRevenue: 9000 },
    });
    const signIn = await fetch(`${server.origin}/b/${project.projectId}/sso?token=${token}`, { redirect: 'manual' });
    assert.ok(signIn.status < 400, `SSO sign-in answered ${signIn.status}`);
    // Ada left her address on an idea: a person without a name.
    const widget = await project.live.post('/features', {
      title: 'An idea from the widget',
      description: 'Submitted before the move.',
      contactEmail: 'ada@example.com',
    });
    assert.equal(widget.status, 201, widget.text);
    // The inbox's value sort brings the stored values up to date with Hank's company now, so the
    // values read below are the ones the import stored, not a recomputation.
    assert.equal((await project.member.get(`${base}/features?sort=value`)).status, 200);

    const dry = await uploadRaw(project, body(), { source: 'canny', dryRun: true });
    assert.equal(dry.status, 200, dry.text);
    const run = await uploadRaw(project, body(), { source: 'canny' });
    assert.equal(run.status, 200, run.text);
    assert.deepEqual({ ...run.body, dryRun: true }, dry.body, 'the run did what the dry run said');
    // Ada, Hank and Grace's second id matched; Grace and Linus (by his source id) made.
    assert.deepEqual(run.body.people, { created: 2, matched: 3 });
    assert.deepEqual(run.body.votes, { created: 5, unchanged: 0, skipped: 0 });

    const people = await project.member.get(`${base}/people?limit=50`);
    assert.equal(people.status, 200, people.text);
    const byEmail = new Map(people.body.people.map((person: any) => [person.email, person]));
    assert.equal(people.body.people.length, 4, JSON.stringify(people.body.people));
    const ada: any = byEmail.get('ada@example.com');
    assert.equal(ada.name, 'Ada Lovelace', 'a missing name is filled');
    assert.equal(ada.firstSeenAt, '2019-01-01T00:00:00.000Z', 'the first sighting moves earlier');
    assert.equal((byEmail.get('hank@globex.test') as any).name, 'Hank Scorpio', 'a known name is kept');
    assert.equal((byEmail.get('grace@example.org') as any).name, 'Grace Hopper', 'the first name given wins');

    const feature = async (title: string) =>
      (await server.db.get<{ id: string; value: number; vote_count: number; comment_count: number }>(
        'SELECT id, value, vote_count, comment_count FROM features WHERE project_id = ? AND title = ?',
        [project.projectId, title],
      ))!;
    const lair = await feature('Volcano lair integrations');
    assert.equal(Number(lair.value), 9000, "Hank's imported vote gives the idea his company's revenue");
    const cards = await feature('Punch cards as an export');
    assert.equal(Number(cards.value), 0);
    assert.equal(Number(cards.vote_count), 2);
    const cardVoters = await project.member.get(`${base}/features/${cards.id}/votes`);
    assert.equal(new Set(cardVoters.body.votes.map((vote: any) => vote.person.id)).size, 1, "both of Grace's ids");

    const afterRun = await importHoldings(server, project.projectId);
    const again = await uploadRaw(project, body(), { source: 'canny' });
    assert.equal(again.status, 200, again.text);
    assert.deepEqual(again.body.people, { created: 0, matched: 5 });
    assert.deepEqual(again.body.ideas, { created: 0, updated: 0, unchanged: 3, skipped: 0, truncated: 0 });
    assert.deepEqual(again.body.comments, { created: 0, updated: 0, unchanged: 2, skipped: 0 });
    assert.deepEqual(await importHoldings(server, project.projectId), afterRun, 'a second run changes nothing');

    // The team deletes one imported idea here; the export renames another and edits a comment.
    const digest = await feature('A kernel mailing list digest');
    assert.equal((await project.admin.delete(`${base}/features/${digest.id}`)).status, 204);
    const third = await uploadRaw(project, body(true), { source: 'canny' });
    assert.equal(third.status, 200, third.text);
    assert.deepEqual(third.body.ideas, { created: 1, updated: 1, unchanged: 1, skipped: 0, truncated: 0 });
    assert.deepEqual(third.body.comments, { created: 1, updated: 1, unchanged: 0, skipped: 0 });
    assert.deepEqual(third.body.votes, { created: 1, unchanged: 4, skipped: 0 });
    const renamed = await feature('Volcano lair integrations, renamed there');
    assert.equal(renamed.id, lair.id);
    const comment = await server.db.get<{ body: string }>('SELECT body FROM comments WHERE feature_id = ?', [lair.id]);
    assert.equal(comment?.body, 'Needed by March.');
    const anew = await feature('A kernel mailing list digest');
    assert.notEqual(anew.id, digest.id);
    assert.deepEqual([Number(anew.vote_count), Number(anew.comment_count)], [1, 1]);
    assert.deepEqual(await importHoldings(server, project.projectId), afterRun, 'the same counts again, no e-mail');
  });
});
