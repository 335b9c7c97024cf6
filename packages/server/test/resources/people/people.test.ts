/**
 * People (issue 30) through the real interfaces: an SSO user with a company votes on the board in
 * Chromium and shows by name (with company and revenue) in the management API's voters, the
 * People list and their person page; a public API voterId and a contact e-mail become people;
 * the inbox sorts by value. Bad input is a 400, another team's project a 404.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { updateBoard } from '../../../src/resources/board/index.ts';
import { rotateSsoSecret } from '../../../src/resources/board/sso-secret.ts';
import { startBoardEnv, type BoardTestEnv } from '../../support/board.ts';
import { managedProject, type ManagedProject } from '../../support/manage-fixtures.ts';
import { ssoToken } from '../../support/sso.ts';

describe('people', () => {
  let env: BoardTestEnv;
  let project: ManagedProject;
  let boardUrl: string;

  before(async () => {
    env = await startBoardEnv();
    project = await managedProject(env.server);
    await updateBoard(env.server.db, project.projectId, { enabled: true });
    boardUrl = `${env.origin}/b/${project.projectId}`;
  });
  after(async () => env?.close());

  it('an SSO user with a company votes on the board and shows by name, company and revenue', async () => {
    const { projectId } = project;
    const cheap = await project.live.post('/features', {
      title: 'Dark mode for reports',
      description: 'Reports are too bright at night.',
    });
    const valued = await project.live.post('/features', {
      title: 'Export to CSV files',
      description: 'Our finance team needs CSV exports.',
      contactEmail: 'Finance@Acme.test',
    });
    assert.equal(valued.status, 201);
    const { secret } = await rotateSsoSecret(env.server.db, { secretKey: undefined }, projectId);
    const token = await ssoToken(secret, {
      sub: 'acme-user-1',
      email: 'grace@acme.test',
      name: 'Grace Hopper',
      avatar: 'https://cdn.acme.test/grace.png',
      company: { id: 'acme', name: 'Acme Corp', plan: 'enterprise', monthlyRevenue: 4200 },
    });
    const context = await env.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${boardUrl}/sso?token=${token}&return=${encodeURIComponent(`/ideas/${valued.body.id}`)}`);
    await page.getByText('Signed in as Grace Hopper').waitFor();
    await page.getByRole('button', { name: 'Vote' }).click();
    await page.getByRole('button', { name: 'Remove vote' }).waitFor();
    await context.close();
    // A public API voter without a name.
    assert.equal((await project.live.put(`/features/${cheap.body.id}/votes/app-user-7`)).status, 200);

    const votes = await project.member.get(`/projects/${projectId}/features/${valued.body.id}/votes`);
    assert.equal(votes.status, 200);
    assert.equal(votes.body.votes.length, 1);
    const voter = votes.body.votes[0].person;
    assert.equal(voter.name, 'Grace Hopper');
    assert.equal(voter.email, 'grace@acme.test');
    assert.equal(voter.avatarUrl, 'https://cdn.acme.test/grace.png');
    assert.deepEqual(voter.company, {
      externalId: 'acme',
      name: 'Acme Corp',
      plan: 'enterprise',
      monthlyRevenue: 4200,
    });
    const anonymous = await project.member.get(`/projects/${projectId}/features/${cheap.body.id}/votes`);
    assert.equal(anonymous.body.votes[0].voterId, 'app-user-7');
    assert.equal(anonymous.body.votes[0].person.name, null);

    const found = await project.member.get(`/projects/${projectId}/people?q=acme%20corp`);
    assert.equal(found.status, 200);
    assert.deepEqual(
      found.body.people.map((p: { name: string }) => p.name),
      ['Grace Hopper'],
    );
    const byMail = await project.member.get(`/projects/${projectId}/people?q=finance@`);
    assert.equal(byMail.body.people.length, 1);
    assert.equal(byMail.body.people[0].email, 'finance@acme.test');

    const personPage = await project.member.get(`/projects/${projectId}/people/${voter.id}`);
    assert.equal(personPage.status, 200);
    assert.equal(personPage.body.person.externalId, 'acme-user-1');
    assert.deepEqual(
      personPage.body.votes.map((v: { id: string }) => v.id),
      [valued.body.id],
    );
    const submitter = await project.member.get(`/projects/${projectId}/people/${byMail.body.people[0].id}`);
    assert.deepEqual(
      submitter.body.ideas.map((i: { title: string }) => i.title),
      ['Export to CSV files'],
    );

    const inbox = await project.member.get(`/projects/${projectId}/features?sort=value`);
    assert.equal(inbox.status, 200);
    assert.equal(inbox.body.features[0].id, valued.body.id);
    assert.equal(inbox.body.features[0].value, 4200);
    assert.equal(inbox.body.features[1].value, 0);
  });

  it('pages the People list with a cursor, refuses a bad cursor and keeps other teams out', async () => {
    const { projectId } = project;
    for (const voterId of ['p-1', 'p-2', 'p-3']) {
      const idea = await project.live.post('/features', {
        title: `Idea of ${voterId}`,
        description: 'Long enough text.',
      });
      await project.live.put(`/features/${idea.body.id}/votes/${voterId}`);
    }
    const seen = new Set<string>();
    let cursor: string | null = null;
    let pages = 0;
    do {
      const url: string = `/projects/${projectId}/people?limit=2${cursor ? `&cursor=${cursor}` : ''}`;
      const response = await project.member.get(url);
      assert.equal(response.status, 200);
      for (const person of response.body.people) seen.add(person.id);
      cursor = response.body.nextCursor;
      pages += 1;
    } while (cursor && pages < 20);
    assert.ok(seen.size >= 5, `all people listed once: ${seen.size}`);
    assert.equal((await project.member.get(`/projects/${projectId}/people?cursor=bm9wZQ`)).status, 400);
    assert.equal((await project.member.get(`/projects/${projectId}/people?limit=0`)).status, 400);
    assert.equal((await project.outsider.get(`/projects/${projectId}/people`)).status, 404);
    assert.equal((await project.member.get(`/projects/${projectId}/people/per_unknown`)).status, 404);
  });
});
