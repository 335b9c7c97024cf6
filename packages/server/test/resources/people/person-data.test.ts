/**
 * A person's data (issue 36): an end user who signed in on the board by SSO, voted, commented,
 * followed, submitted an idea with their contact e-mail and got a follower e-mail is exported as
 * JSON with all of it, then erased. Their ideas and comments stay without their author (the
 * default) or go (the project's setting), counts stay exact, and afterwards the database holds
 * neither their e-mail nor their name: a raw search of the SQLite file after the server closed,
 * and a search of every text column on PostgreSQL. Members get 403, other teams 404.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { updateBoard } from '../../../src/resources/board/index.ts';
import { rotateSsoSecret } from '../../../src/resources/board/sso-secret.ts';
import { createTestDatabase, type TestDatabase } from '../../support/database.ts';
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
    const page = await this.get(pagePath);
    const csrf = /name="_csrf" value="([^"]+)"/.exec(page)?.[1];
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

/** Every text-like column of every table on PostgreSQL that holds the needle (case-insensitive). */
async function pgTextHits(url: string, needle: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const columns = await client.query<{ table_name: string; column_name: string }>(
      `SELECT table_name, column_name FROM information_schema.columns
       WHERE table_schema = 'public' AND data_type IN ('text', 'character varying', 'json', 'jsonb')`,
    );
    const hits: string[] = [];
    for (const { table_name, column_name } of columns.rows) {
      const found = await client.query(`SELECT 1 FROM "${table_name}" WHERE "${column_name}"::text ILIKE $1 LIMIT 1`, [
        `%${needle}%`,
      ]);
      if (found.rowCount) hits.push(`${table_name}.${column_name}`);
    }
    return hits;
  } finally {
    await client.end();
  }
}

describe("a person's data: export and erase", () => {
  let database: TestDatabase;
  let server: TestServer;
  let p: ManagedProject;
  let base: string;
  let ssoSecret: string;

  before(async () => {
    database = await createTestDatabase();
    server = await startTestServer({ database, env: { OUTBOX_POLL_MS: '50' } });
    p = await managedProject(server);
    base = `/projects/${p.projectId}`;
    await updateBoard(server.db, p.projectId, { enabled: true });
    ({ secret: ssoSecret } = await rotateSsoSecret(server.db, { secretKey: undefined }, p.projectId));
  });
  let closed = false;
  after(async () => {
    if (!closed) await server?.close();
    await database?.drop();
  });

  /** An end user who did everything a person can: answers their person id and what they touched. */
  async function busyPerson(email: string, name: string, sub: string) {
    const own = await p.live.post('/features', {
      title: `Offline mode ${sub}`,
      description: 'Work without a connection, sync later.',
      contactEmail: email,
    });
    assert.equal(own.status, 201, own.text);
    const other = await p.live.post('/features', {
      title: `Bulk edit ${sub}`,
      description: 'Change many ideas at once.',
    });
    await p.live.put(`/features/${other.body.id}/votes/someone-else-${sub}`);
    const visitor = new Visitor(server.origin);
    const board = `/b/${p.projectId}`;
    await visitor.get(`${board}/sso?token=${await ssoToken(ssoSecret, { sub, email, name })}`);
    const idea = `${board}/ideas/${other.body.id}`;
    assert.equal(await visitor.post(idea, `${idea}/vote`, {}), 303);
    assert.equal(await visitor.post(idea, `${idea}/comments`, { body: `I would use this daily (${sub}).` }), 303);
    // A status change e-mails the follower (the commenter follows the idea).
    assert.equal((await p.admin.patch(`${base}/features/${other.body.id}`, { status: 'planned' })).status, 200);
    const people = await p.admin.get(`${base}/people?q=${encodeURIComponent(email)}`);
    assert.equal(people.body.people.length, 1, people.text);
    return { personId: people.body.people[0].id as string, own: own.body.id as string, other: other.body.id as string };
  }

  it('exports everything held about one person, to admins only', async () => {
    const zelda = await busyPerson('zelda.quux@erase.test', 'Zelda Quux', 'zq-1');
    assert.equal((await p.member.post(`${base}/people/${zelda.personId}/export`, {})).status, 403);
    assert.equal((await p.outsider.post(`${base}/people/${zelda.personId}/export`, {})).status, 404);
    assert.equal((await p.admin.post(`${base}/people/per_missing/export`, {})).status, 404);
    const res = await p.admin.post(`${base}/people/${zelda.personId}/export`, {});
    assert.equal(res.status, 200, res.text);
    const data = res.body;
    assert.equal(data.person.name, 'Zelda Quux');
    assert.equal(data.person.email, 'zelda.quux@erase.test');
    assert.equal(data.person.externalId, 'zq-1');
    assert.deepEqual(
      data.ideas.map((i: { id: string }) => i.id),
      [zelda.own],
    );
    assert.equal(data.ideas[0].contactEmail, 'zelda.quux@erase.test');
    assert.deepEqual(
      data.votes.map((v: { featureId: string }) => v.featureId),
      [zelda.other],
    );
    assert.equal(data.comments.length, 1);
    assert.equal(data.comments[0].body, 'I would use this daily (zq-1).');
    assert.deepEqual(
      data.follows.map((f: { featureId: string }) => f.featureId),
      [zelda.other],
    );
    assert.equal(data.emails.length, 1);
    assert.equal(data.emails[0].kind, 'status-changed');
    assert.equal(data.boardUsers[0].email, 'zelda.quux@erase.test');
    assert.ok(data.aliases.some((a: { kind: string; value: string }) => a.kind === 'email'));
  });

  it('erases a person: content anonymised by default, counts exact, no e-mail or name left anywhere', async () => {
    const email = 'yorick.vantassel@erase.test';
    const name = 'Yorick Vantassel';
    const yorick = await busyPerson(email, name, 'yv-2');
    const before = (await p.live.get(`/features/${yorick.other}`)).body;
    assert.equal(before.voteCount, 2);
    assert.equal(before.commentCount, 1);
    assert.equal((await p.member.post(`${base}/people/${yorick.personId}/erase`, {})).status, 403);
    assert.equal((await p.outsider.post(`${base}/people/${yorick.personId}/erase`, {})).status, 404);

    const erased = await p.admin.post(`${base}/people/${yorick.personId}/erase`, {});
    assert.equal(erased.status, 200, erased.text);
    assert.deepEqual(
      { ...erased.body },
      {
        erased: true,
        content: 'anonymise',
        ideas: 1,
        comments: 1,
        votes: 1,
        follows: 1,
        emails: 1,
        errorEvents: 0,
        reports: 0,
        sessions: 0,
        logGroups: 0,
      },
    );
    assert.equal((await p.admin.get(`${base}/people/${yorick.personId}`)).status, 404);
    // The audit log records the erasure by the person's id, and keeps nothing of what it removed.
    const audit = await p.admin.get(`${base}/audit?action=person.erased`);
    assert.equal(audit.status, 200, audit.text);
    assert.equal(audit.body.entries.length, 1);
    assert.equal(audit.body.entries[0].target.id, yorick.personId);
    assert.doesNotMatch(JSON.stringify(audit.body), /yorick/i);
    assert.equal((await p.admin.post(`${base}/people/${yorick.personId}/erase`, {})).status, 404);
    const after = (await p.live.get(`/features/${yorick.other}`)).body;
    assert.equal(after.voteCount, 2, 'their vote still counts');
    assert.equal(after.commentCount, 1);
    const comments = (await p.live.get(`/features/${yorick.other}/comments`)).body.comments;
    assert.equal(comments[0].body, 'I would use this daily (yv-2).');
    const own = await p.admin.get(`${base}/features/${yorick.own}`);
    assert.equal(own.status, 200, 'their idea stays');
    assert.equal(JSON.stringify(own.body).includes(email), false);
    const voters = await p.admin.get(`${base}/features/${yorick.other}/votes`);
    assert.equal(voters.body.votes.length, 2);
    assert.equal(JSON.stringify(voters.body).includes(name), false);

    if (database.kind === 'postgres') {
      assert.deepEqual(await pgTextHits(database.url, email), []);
      assert.deepEqual(await pgTextHits(database.url, name), []);
    }
  });

  it('deletes their content when the project chose so, counts following', async () => {
    assert.equal((await p.member.put(`${base}/people-settings`, { eraseContent: 'delete' })).status, 403);
    assert.equal((await p.admin.put(`${base}/people-settings`, { eraseContent: 'purge' })).status, 400);
    const set = await p.admin.put(`${base}/people-settings`, { eraseContent: 'delete' });
    assert.deepEqual(set.body, { eraseContent: 'delete' });
    assert.deepEqual((await p.member.get(`${base}/people-settings`)).body, { eraseContent: 'delete' });
    const xavier = await busyPerson('xavier.wobble@erase.test', 'Xavier Wobble', 'xw-3');
    const erased = await p.admin.post(`${base}/people/${xavier.personId}/erase`, {});
    assert.equal(erased.status, 200, erased.text);
    assert.equal(erased.body.content, 'delete');
    assert.equal((await p.live.get(`/features/${xavier.own}`)).status, 404, 'their idea is gone');
    const other = (await p.live.get(`/features/${xavier.other}`)).body;
    assert.equal(other.voteCount, 2, 'their vote still counts');
    assert.equal(other.commentCount, 0, 'their comment is gone, and the count with it');
    assert.deepEqual((await p.live.get(`/features/${xavier.other}/comments`)).body.comments, []);
  });

  it('leaves neither e-mail nor name of the erased people in the database file', async () => {
    const needles = ['yorick.vantassel@erase.test', 'Yorick Vantassel', 'xavier.wobble@erase.test', 'Xavier Wobble'];
    if (database.kind === 'postgres') {
      for (const needle of needles) assert.deepEqual(await pgTextHits(database.url, needle), [], needle);
      return;
    }
    // The person not erased is there: the search would find an erased one too.
    await server.close();
    closed = true;
    const file = readFileSync(join(database.dataDir, 'signpost.db'));
    assert.ok(file.includes('zelda.quux@erase.test'));
    for (const needle of needles) {
      for (const form of [needle, needle.toLowerCase(), needle.toUpperCase()]) {
        assert.equal(file.includes(form), false, `${form} in the database file`);
      }
    }
  });
});
