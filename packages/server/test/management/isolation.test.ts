import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Api } from '../support/api.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { signUp, type SignedIn } from '../support/management.ts';

describe('management: projects, keys and isolation between teams', () => {
  let server: TestServer;
  let root: SignedIn;
  let alice: SignedIn;
  let bob: SignedIn;

  before(async () => {
    server = await startTestServer();
    root = await signUp(server.origin, { name: 'Root' });
    alice = await signUp(server.origin, { name: 'Alice' });
    bob = await signUp(server.origin, { name: 'Bob' });
  });
  after(() => server.close());

  it('gives the first account the platform and demo projects, and makes it the instance administrator', async () => {
    assert.equal(root.account.admin, true);
    assert.equal(alice.account.admin, false);
    const ids = (await root.api.get('/projects')).body.projects.map((p: { id: string }) => p.id).sort();
    assert.deepEqual(ids, ['demo', server.platformProjectId].sort());
    assert.equal((await alice.api.get('/projects')).body.projects.length, 0);
    assert.equal((await alice.api.get('/projects/demo')).status, 404);
  });

  it('creates, reads and updates projects of the caller’s team', async () => {
    const created = await alice.api.post('/projects', {
      name: 'Über App',
      supportedLocales: ['en', 'de', 'de-AT'],
      defaultLocale: 'en',
    });
    assert.equal(created.status, 201);
    assert.equal(created.body.slug, 'uber-app');
    assert.equal(created.body.role, 'owner');
    assert.equal(created.body.plan, 'self-hosted');
    assert.equal(created.body.monthlyQuota, null);
    assert.deepEqual(created.body.supportedLocales, ['en', 'de', 'de-AT']);
    const second = await alice.api.post('/projects', { name: 'Über App' });
    assert.equal(second.body.slug, 'uber-app-2');
    assert.equal((await alice.api.post('/projects', { name: 'Clash', slug: 'uber-app' })).status, 409);
    assert.equal(
      (await alice.api.post('/projects', { name: 'Bad', defaultLocale: 'fr', supportedLocales: ['en'] })).status,
      400,
    );

    const id = created.body.id;
    const updated = await alice.api.patch(`/projects/${id}`, {
      name: 'Uber',
      defaultLocale: 'de',
      plan: 'pro',
      monthlyQuota: 50_000,
    });
    assert.equal(updated.status, 200);
    assert.equal(updated.body.name, 'Uber');
    assert.equal(updated.body.defaultLocale, 'de');
    assert.equal(updated.body.monthlyQuota, 50_000);
    assert.equal((await alice.api.patch(`/projects/${id}`, { slug: 'uber-app-2' })).status, 409);
    assert.equal((await alice.api.patch(`/projects/${id}`, {})).status, 400);
    const listed = (await alice.api.get('/projects')).body.projects.map((p: { id: string }) => p.id);
    assert.ok(listed.includes(id));
  });

  it('creates keys with chosen scopes, shown once, listed by prefix, revoked at once', async () => {
    const project = (await alice.api.post('/projects', { name: 'Keyed' })).body;
    const created = await alice.api.post(`/projects/${project.id}/keys`, {
      name: 'web',
      environment: 'test',
      scopes: ['features:read', 'features:write'],
    });
    assert.equal(created.status, 201);
    const key: string = created.body.key;
    assert.match(key, /^svc_test_/);
    assert.ok(key.startsWith(created.body.apiKey.prefix));
    assert.deepEqual(created.body.apiKey.scopes, ['features:read', 'features:write']);
    assert.equal(
      (await alice.api.post(`/projects/${project.id}/keys`, { environment: 'live', scopes: ['admin:everything'] }))
        .status,
      400,
    );
    assert.equal(
      (await alice.api.post(`/projects/${project.id}/keys`, { environment: 'live', scopes: [] })).status,
      400,
    );

    const listed = await alice.api.get(`/projects/${project.id}/keys`);
    assert.equal(listed.body.keys.length, 1);
    assert.ok(!listed.text.includes(key));

    const publicApi = new Api(server.baseUrl, key);
    const submitted = await publicApi.post('/features', {
      title: 'Dark mode',
      description: 'Please add a dark theme.',
    });
    assert.equal(submitted.status, 201);
    assert.equal(submitted.body.projectId, project.id);
    assert.equal((await publicApi.post('/bugs', { title: 'Broken', message: 'It does not work at all.' })).status, 403);

    const revoked = await alice.api.delete(`/projects/${project.id}/keys/${created.body.apiKey.id}`);
    assert.equal(revoked.status, 200);
    assert.ok(revoked.body.revokedAt);
    const refused = await publicApi.get('/features');
    assert.equal(refused.status, 401);
    assert.deepEqual(refused.body, { error: 'Invalid API key', code: 'Unauthorized' });
  });

  it('never lets an account reach another team’s projects, keys, members or invites', async () => {
    const project = (await alice.api.post('/projects', { name: 'Private' })).body;
    const key = (
      await alice.api.post(`/projects/${project.id}/keys`, { environment: 'live', scopes: ['features:read'] })
    ).body.apiKey;
    const teamId = project.teamId;
    const bobToken = (await bob.api.post('/me/tokens', { name: 'script' })).body.token;
    const bobScript = new Api(`${server.origin}/api/v1`, null, { authorization: `Bearer ${bobToken}` });

    assert.ok(!(await bob.api.get('/projects')).body.projects.some((p: { id: string }) => p.id === project.id));
    assert.equal((await bob.api.get('/projects', { query: { teamId } })).body.projects.length, 0);
    assert.equal((await bob.api.post('/projects', { teamId, name: 'Squat' })).status, 404);

    // Every operation of the document that takes a project or team id: as Bob, Alice's ids answer
    // exactly like ids that do not exist.
    const doc = (await (await fetch(`${server.origin}/api/v1/openapi.json`)).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    let checked = 0;
    let notFound = 0;
    for (const [path, operations] of Object.entries(doc.paths)) {
      if (!path.includes('{projectId}') && !path.includes('{teamId}')) continue;
      for (const method of Object.keys(operations)) {
        const url = (projectId: string, team: string) =>
          path
            .replace('{projectId}', projectId)
            .replace('{teamId}', team)
            .replace('{keyId}', key.id)
            .replace('{accountId}', alice.account.id)
            .replace(/\{[^}]+\}/g, 'x1');
        const body = ['post', 'put', 'patch'].includes(method) ? {} : undefined;
        for (const client of [bob.api, bobScript]) {
          const real = await client.request(method.toUpperCase(), url(project.id, teamId), body, { unchecked: true });
          const missing = await client.request(method.toUpperCase(), url('proj_missing', 'team_missing'), body, {
            unchecked: true,
          });
          assert.equal(real.status, missing.status, `${method.toUpperCase()} ${path}: ${real.text} vs ${missing.text}`);
          assert.deepEqual(real.body, missing.body, `${method.toUpperCase()} ${path}`);
          assert.ok([400, 404].includes(real.status), `${method.toUpperCase()} ${path} answered ${real.status}`);
          if (real.status === 404) notFound++;
        }
        checked++;
      }
    }
    assert.ok(checked >= 12, `checked ${checked} operations`);
    // Requests that pass validation (every read without required query parameters) reach the access check.
    assert.ok(notFound >= checked, `${notFound} of ${checked * 2} answered 404`);

    // Nothing changed on Alice's side.
    assert.equal((await alice.api.get(`/projects/${project.id}/keys`)).body.keys[0].revokedAt, null);
    assert.equal((await alice.api.get(`/projects/${project.id}`)).body.name, 'Private');
    assert.equal((await alice.api.get(`/teams/${teamId}/members`)).body.members.length, 1);
  });
});
