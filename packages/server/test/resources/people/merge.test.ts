/**
 * Merging duplicate people (issue 30) through the management API: an SSO board user with a
 * company, the same human as a public API voterId and as a contact e-mail become one person with
 * all their votes (one per idea), comments, ideas and the company; repeating the merge changes
 * nothing; each merge leaves one audit entry. The inbox filtered by the company lists what its
 * people voted for or submitted. Bad input is a 400 that changes nothing; members get
 * 403, other teams 404.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { updateBoard } from '../../../src/resources/board/index.ts';
import { rotateSsoSecret } from '../../../src/resources/board/sso-secret.ts';
import { managedProject, type ManagedProject } from '../../support/manage-fixtures.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { ssoToken } from '../../support/sso.ts';

/** A board visitor over plain HTTP: the SSO sign-in's cookies, and form posts with the page's CSRF token. */
class Visitor {
  private cookies = new Map<string, string>();
  private readonly origin: string;
  constructor(origin: string) {
    this.origin = origin;
  }
  private remember(res: Response) {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, eq), pair!.slice(eq + 1));
    }
  }
  private header() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
  async get(path: string): Promise<string> {
    const res = await fetch(`${this.origin}${path}`, { headers: { cookie: this.header() }, redirect: 'manual' });
    this.remember(res);
    return res.text();
  }
  async post(pagePath: string, action: string, fields: Record<string, string>): Promise<number> {
    const csrf = /name="_csrf" value="([^"]+)"/.exec(await this.get(pagePath))?.[1];
    assert.ok(csrf, `a CSRF field on ${pagePath}`);
    const res = await fetch(`${this.origin}${action}`, {
      method: 'POST',
      headers: { cookie: this.header(), origin: this.origin, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ _csrf: csrf, ...fields }).toString(),
      redirect: 'manual',
    });
    this.remember(res);
    return res.status;
  }
}

describe('people: merging duplicates', () => {
  let server: TestServer;
  let p: ManagedProject;
  let base: string;
  before(async () => {
    server = await startTestServer();
    p = await managedProject(server);
    base = `/projects/${p.projectId}`;
    await updateBoard(server.db, p.projectId, { enabled: true });
  });
  after(async () => server?.close());

  const idea = async (title: string, contactEmail?: string) => {
    const res = await p.live.post('/features', { title, description: `${title}, described.`, contactEmail });
    assert.equal(res.status, 201, res.text);
    return res.body.id as string;
  };
  const personBy = async (q: string) => {
    const res = await p.admin.get(`${base}/people?q=${encodeURIComponent(q)}`);
    assert.equal(res.body.people.length, 1, res.text);
    return res.body.people[0].id as string;
  };

  it('moves votes (one per idea), comments, ideas and the company; again changes nothing', async () => {
    const shared = await idea('Calendar sync');
    const onlyApi = await idea('Slack digest');
    const authored = await idea('Offline mode', 'ada.work@merge.test');
    const unrelated = await idea('Unrelated idea');
    assert.equal((await p.live.put(`/features/${unrelated}/votes/someone-else`)).status, 200);
    // Ada on the board (SSO, with her company): votes and comments on the shared idea.
    const { secret } = await rotateSsoSecret(server.db, { secretKey: undefined }, p.projectId);
    const visitor = new Visitor(server.origin);
    const board = `/b/${p.projectId}`;
    const token = await ssoToken(secret, {
      sub: 'ada-1',
      email: 'ada@merge.test',
      name: 'Ada Lovelace',
      company: { id: 'globex', name: 'Globex', monthlyRevenue: 900 },
    });
    await visitor.get(`${board}/sso?token=${token}`);
    const page = `${board}/ideas/${shared}`;
    assert.equal(await visitor.post(page, `${page}/vote`, {}), 303);
    assert.equal(await visitor.post(page, `${page}/comments`, { body: 'We need this weekly.' }), 303);
    // The same Ada through the host app's API (another voter id) and her work address.
    assert.equal((await p.live.put(`/features/${shared}/votes/app-ada`)).status, 200);
    assert.equal((await p.live.put(`/features/${onlyApi}/votes/app-ada`)).status, 200);
    assert.equal((await p.live.get(`/features/${shared}`)).body.voteCount, 2);

    const ada = await personBy('ada@merge.test');
    const viaApi = (await p.admin.get(`${base}/features/${onlyApi}/votes`)).body.votes[0].person.id as string;
    const viaMail = await personBy('ada.work@merge.test');
    assert.notEqual(viaApi, ada);

    // Bad input and other roles change nothing.
    const merge = (from: string, body: unknown, as = p.admin) => as.post(`${base}/people/${from}/merge`, body);
    assert.equal((await merge(viaApi, { into: viaApi })).status, 400);
    assert.equal((await merge(viaApi, {})).status, 400);
    assert.equal((await merge(viaApi, { into: ada, extra: 1 })).status, 400);
    assert.equal((await merge(viaApi, { into: 'per_missing' })).status, 404);
    assert.equal((await merge('per_missing', { into: ada })).status, 404);
    assert.equal((await merge(viaApi, { into: ada }, p.member)).status, 403);
    assert.equal((await merge(viaApi, { into: ada }, p.outsider)).status, 404);
    assert.equal((await p.admin.get(`${base}/people/${viaApi}`)).status, 200);
    assert.equal((await p.live.get(`/features/${shared}`)).body.voteCount, 2);

    const merged = await merge(viaApi, { into: ada });
    assert.equal(merged.status, 200, merged.text);
    assert.equal(merged.body.merged, true);
    assert.equal(merged.body.votesDropped, 1);
    assert.equal(merged.body.person.id, ada);
    assert.equal(merged.body.person.company.name, 'Globex');
    assert.equal((await p.live.get(`/features/${shared}`)).body.voteCount, 1);
    assert.equal((await p.live.get(`/features/${onlyApi}`)).body.voteCount, 1);
    assert.equal((await p.admin.get(`${base}/people/${viaApi}`)).status, 404);

    // Idempotent: the same merge again answers the kept person and changes nothing.
    const again = await merge(viaApi, { into: ada });
    assert.equal(again.status, 200, again.text);
    assert.equal(again.body.merged, false);
    assert.equal(again.body.votesDropped, 0);
    assert.equal((await p.live.get(`/features/${shared}`)).body.voteCount, 1);

    // The address-only person goes the other way round: into her, she keeps her own details.
    const second = await merge(viaMail, { into: ada });
    assert.equal(second.status, 200, second.text);
    assert.equal(second.body.person.name, 'Ada Lovelace');
    assert.equal(second.body.person.email, 'ada@merge.test');

    const adaPage = await p.admin.get(`${base}/people/${ada}`);
    assert.equal(adaPage.status, 200);
    assert.deepEqual(adaPage.body.votes.map((v: { id: string }) => v.id).sort(), [shared, onlyApi].sort());
    assert.deepEqual(
      adaPage.body.ideas.map((i: { id: string }) => i.id),
      [authored],
    );
    assert.deepEqual(
      adaPage.body.comments.map((c: { body: string }) => c.body),
      ['We need this weekly.'],
    );
    // Her later votes through the app's id land on her.
    assert.equal((await p.live.put(`/features/${authored}/votes/app-ada`)).status, 200);
    const voters = await p.admin.get(`${base}/features/${authored}/votes`);
    assert.equal(voters.body.votes[0].person.id, ada);
    // The value sort counts her company on every idea she voted for.
    const byValue = await p.member.get(`${base}/features?sort=value&limit=3`);
    assert.deepEqual(
      byValue.body.features.map((f: { value: number }) => f.value),
      [900, 900, 900],
    );

    // Her company's revenue changes at her next SSO sign-in: the stored values follow.
    const raised = await ssoToken(secret, {
      sub: 'ada-1',
      email: 'ada@merge.test',
      name: 'Ada Lovelace',
      company: { id: 'globex', name: 'Globex', monthlyRevenue: 1500 },
    });
    await new Visitor(server.origin).get(`${board}/sso?token=${raised}`);
    const raisedValues = await p.member.get(`${base}/features?sort=value&limit=4`);
    assert.deepEqual(
      raisedValues.body.features.map((f: { value: number }) => f.value),
      [1500, 1500, 1500, 0],
    );

    // The inbox by company: what its people voted for or submitted (by the host app's company id).
    const ofGlobex = await p.member.get(`${base}/features?company=globex&sort=votes&limit=10`);
    assert.equal(ofGlobex.status, 200, ofGlobex.text);
    assert.deepEqual(
      ofGlobex.body.features.map((f: { id: string }) => f.id).sort(),
      [shared, onlyApi, authored].sort(),
    );
    assert.equal(ofGlobex.body.total, 3);
    const nobody = await p.member.get(`${base}/features?company=initech`);
    assert.deepEqual([nobody.body.features, nobody.body.total], [[], 0]);
    assert.equal((await p.member.get(`${base}/features?company=${'x'.repeat(101)}`)).status, 400);
    assert.equal((await p.member.get(`${base}/features?company=`)).status, 400);
    assert.equal((await p.outsider.get(`${base}/features?company=globex`)).status, 404);

    const audit = await p.admin.get(`${base}/audit?action=person.merged`);
    assert.equal(audit.status, 200, audit.text);
    assert.equal(audit.body.entries.length, 2);
    assert.equal(audit.body.entries[1].target.id, ada);
    assert.equal(JSON.stringify(audit.body.entries).includes('ada@merge.test'), false);
  });
});
