/**
 * Filing an idea on a person's behalf (issue 30, POST /projects/{id}/features) and the companies
 * list the inbox's company filter reads (GET /projects/{id}/companies), through the management API:
 * the idea is the person's (on their page), their vote counts, it starts triaged; a new address
 * becomes a person; bad input is a 400 that changes nothing; members and outsiders are refused.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { updateBoard } from '../../../src/resources/board/index.ts';
import { rotateSsoSecret } from '../../../src/resources/board/sso-secret.ts';
import { managedProjectSuite } from '../../support/manage-fixtures.ts';
import { ssoToken } from '../../support/sso.ts';

describe('an idea filed on behalf of a person', () => {
  const p = managedProjectSuite();
  const base = () => `/projects/${p.projectId}`;

  it('a new address becomes a person who authored the idea and voted for it; it starts triaged', async () => {
    const created = await p.admin.post(`${base()}/features`, {
      title: 'Bulk export of invoices',
      description: 'Asked on the phone: they export invoices one by one today.',
      email: 'Ada@Example.com',
      name: 'Ada Lovelace',
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.body.voteCount, 1);
    assert.equal(created.body.contactEmail, 'ada@example.com');
    assert.equal(created.body.status, 'open');
    assert.notEqual(created.body.triagedAt, null);
    const votes = await p.member.get(`${base()}/features/${created.body.id}/votes`);
    assert.equal(votes.body.votes.length, 1);
    assert.equal(votes.body.votes[0].person.name, 'Ada Lovelace');
    const personId = votes.body.votes[0].person.id;
    const page = await p.member.get(`${base()}/people/${personId}`);
    assert.deepEqual(
      page.body.ideas.map((idea: { id: string }) => idea.id),
      [created.body.id],
    );
    assert.deepEqual(
      page.body.votes.map((idea: { id: string }) => idea.id),
      [created.body.id],
    );
    // The same address again is the same person, not a second one.
    const again = await p.admin.post(`${base()}/features`, {
      title: 'Invoice reminders',
      description: 'Also asked: remind customers of unpaid invoices.',
      email: 'ada@example.com',
    });
    assert.equal(again.status, 201);
    const people = await p.member.get(`${base()}/people?q=ada%40example.com`);
    assert.equal(people.body.people.length, 1);
    assert.equal(people.body.people[0].name, 'Ada Lovelace');
  });

  it('a person picked by id files under their board account and their board vote id', async () => {
    await updateBoard(p.server.db, p.projectId, { enabled: true });
    const { secret } = await rotateSsoSecret(p.server.db, { secretKey: undefined }, p.projectId);
    const token = await ssoToken(secret, {
      sub: 'globex-1',
      email: 'hank@globex.test',
      name: 'Hank Scorpio',
      company: { id: 'globex', name: 'Globex', plan: 'enterprise', monthlyRevenue: 9000 },
    });
    const signIn = await fetch(`${p.server.origin}/b/${p.projectId}/sso?token=${token}`, { redirect: 'manual' });
    assert.ok(signIn.status < 400, `SSO sign-in answered ${signIn.status}`);
    const people = await p.member.get(`${base()}/people?q=Hank`);
    assert.equal(people.body.people.length, 1, JSON.stringify(people.body.people));
    const hank = people.body.people[0];
    const created = await p.admin.post(`${base()}/features`, {
      title: 'Volcano lair integrations',
      description: 'Asked in the quarterly review.',
      personId: hank.id,
      type: 'feature',
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.body.voteCount, 1);
    const votes = await p.member.get(`${base()}/features/${created.body.id}/votes`);
    assert.match(votes.body.votes[0].voterId, /^board:/);
    assert.equal(votes.body.votes[0].person.id, hank.id);
    // Their company's revenue is the idea's value, and the companies list has it.
    const companies = await p.member.get(`${base()}/companies`);
    assert.equal(companies.status, 200);
    const globex = companies.body.companies.find((c: { externalId: string }) => c.externalId === 'globex');
    assert.deepEqual(
      { name: globex.name, plan: globex.plan, monthlyRevenue: globex.monthlyRevenue, people: globex.people },
      { name: 'Globex', plan: 'enterprise', monthlyRevenue: 9000, people: 1 },
    );
    assert.equal(typeof globex.id, 'string');
  });

  it('bad input is a 400 and changes nothing; members and other teams are refused', async () => {
    const before = (await p.member.get(`${base()}/features?limit=1`)).body.total;
    const idea = { title: 'Something else', description: 'A description long enough.' };
    const cases: [unknown, number][] = [
      [idea, 400],
      [{ ...idea, email: 'a@example.com', personId: 'per_x' }, 400],
      [{ ...idea, personId: 'per_nobody' }, 400],
      [{ ...idea, email: 'not-an-address' }, 400],
      [{ ...idea, personId: 'per_x', name: 'Name without email' }, 400],
      [{ ...idea, title: 'abc', email: 'a@example.com' }, 400],
    ];
    for (const [body, status] of cases) {
      const answer = await p.admin.post(`${base()}/features`, body);
      assert.equal(answer.status, status, JSON.stringify(body));
      assert.equal(answer.body.error !== undefined || answer.body.message !== undefined, true);
    }
    const asMember = await p.member.post(`${base()}/features`, { ...idea, email: 'm@example.com' });
    assert.equal(asMember.status, 403);
    const asOutsider = await p.outsider.post(`${base()}/features`, { ...idea, email: 'o@example.com' });
    assert.equal(asOutsider.status, 404);
    assert.equal((await p.outsider.get(`${base()}/companies`)).status, 404);
    assert.equal((await p.member.get(`${base()}/features?limit=1`)).body.total, before);
    const strays = await p.member.get(`${base()}/people?q=%40example.com`);
    assert.ok(!strays.body.people.some((x: { email: string }) => /^[amo]@example\.com$/.test(x.email)));
  });
});
