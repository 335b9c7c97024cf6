/**
 * Declared access (issue 29): a management route names the role it needs in `config.access`; the
 * plugin refuses a `:projectId` or `:teamId` route that declares none, checks the declaration
 * before the handler with the rules of access.ts, and writes the role into the OpenAPI summary.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import Fastify, { type FastifyContextConfig } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { declareAccess } from '../../src/routing/management/declared-access.ts';
import { managedProjectSuite } from '../support/manage-fixtures.ts';

/** Registers one route on a Fastify app with the management plugin's hook and reports what `ready` says. */
async function register(url: string, config: FastifyContextConfig = {}): Promise<Error | undefined> {
  const app = Fastify().withTypeProvider<TypeBoxTypeProvider>();
  declareAccess(app);
  try {
    // The refusal comes as the route is added, so loading the plugin that adds it fails.
    await app.register(async (scoped) => {
      scoped.get(url, { config }, async () => ({}));
    });
    await app.ready();
    return undefined;
  } catch (error) {
    return error as Error;
  } finally {
    await app.close();
  }
}

describe('management: a route declares the access it needs', () => {
  it('refuses to register a :projectId route that declares no access, naming the fix', async () => {
    const error = await register('/projects/:projectId/things');
    assert.ok(error, 'the route was registered');
    assert.match(error.message, /GET \/projects\/:projectId\/things takes :projectId but declares no access/);
    assert.match(error.message, /config: \{ access: \{ project: '<role>' \} \}/);
  });

  it('refuses a :teamId route that declares no access, and a declaration its path cannot resolve', async () => {
    assert.match((await register('/teams/:teamId/things'))?.message ?? '', /takes :teamId but declares no access/);
    assert.match(
      (await register('/things', { access: { project: 'admin' } }))?.message ?? '',
      /declares project access but takes no :projectId/,
    );
  });

  it('registers declared routes and routes that take neither id', async () => {
    assert.equal(await register('/projects/:projectId/things', { access: { project: 'member' } }), undefined);
    assert.equal(await register('/teams/:teamId', { access: { team: 'owner' } }), undefined);
    assert.equal(await register('/me'), undefined);
  });

  describe('on the running management API', () => {
    const p = managedProjectSuite();

    it('names the declared role in the summary of every project and team route', async () => {
      const doc = (await p.owner.get('/openapi.json', { unchecked: true })).body;
      let checked = 0;
      for (const [template, item] of Object.entries<any>(doc.paths)) {
        if (!/\{(projectId|teamId)\}/.test(template)) continue;
        for (const [method, operation] of Object.entries<any>(item)) {
          assert.match(operation.summary, / \(role: (member|admin|owner)\)$/, `${method} ${template}`);
          // The role is written once, by the declaration: no hand-written mention left beside it.
          assert.equal(operation.summary.match(/\brole: /g).length, 1, `${method} ${template}: ${operation.summary}`);
          checked++;
        }
      }
      assert.ok(checked >= 100, `${checked} routes`);
    });

    it('checks the declaration: another team gets 404, a lower role a 403 naming both roles', async () => {
      const tags = `/projects/${p.projectId}/tags`;
      const outsider = await p.outsider.post(tags, { name: 'Sneaky' });
      assert.equal(outsider.status, 404);
      assert.deepEqual(outsider.body, { error: 'Not found', code: 'NotFound' });
      const member = await p.member.post(tags, { name: 'Sneaky' });
      assert.equal(member.status, 403);
      assert.equal(member.body.error, 'This needs the admin role on the team; you are a member');
      const admin = await p.admin.post(tags, { name: 'Declared' });
      assert.equal(admin.status, 201);
      const read = await p.member.get(tags);
      assert.deepEqual(
        read.body.tags.map((tag: { name: string }) => tag.name),
        ['Declared'],
      );
    });

    it('declares team access too: a member reads the team, only the owner renames it', async () => {
      const team = `/teams/${p.teamId}`;
      assert.equal((await p.member.get(team)).status, 200);
      const rename = await p.admin.patch(team, { name: 'Taken over' });
      assert.equal(rename.status, 403);
      assert.equal(rename.body.error, 'This needs the owner role on the team; you are an admin');
      assert.equal((await p.outsider.get(team)).status, 404);
    });
  });
});
