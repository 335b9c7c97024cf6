/**
 * A fresh project, team and accounts for each fuzzed operation (a variant may revoke the token it
 * came with, or delete the item it names), with real ids for the path parameters it needs, so
 * a malformed request gets past "no such item" to the code that handles the input.
 */
import { ALL_KEY_SCOPES, createApiKey } from '../../src/resources/projects/index.ts';
import { managedProject, type ManagedProject } from './manage-fixtures.ts';
import type { TestServer } from './server.ts';
import { operationsOf, type Operation } from './fuzz-requests.ts';
import { sample, toJson, type Schema } from './fuzz-values.ts';

export interface Fixture {
  project: ManagedProject;
  ids: Record<string, string>;
  /** The credentials for an operation: the live key (all public scopes) or the owner's token. */
  headers: Record<string, string>;
  /** A new key for the public API, when a rate limit ran out. */
  renewKey(): Promise<void>;
}

async function call(
  server: TestServer,
  method: string,
  url: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<any> {
  const response = await fetch(server.origin + url, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? null : toJson(body),
  });
  const text = await response.text();
  return response.ok && text ? JSON.parse(text) : undefined;
}

/** Creates one item through the operation `method path` with a sampled body; returns the answer. */
async function createVia(
  server: TestServer,
  ops: Operation[],
  method: string,
  path: string,
  url: string,
  headers: Record<string, string>,
  extra: Schema = {},
) {
  const op = ops.find((candidate) => candidate.method === method && candidate.path === path);
  if (!op) return undefined;
  const body = { ...(sample(op.body, op.doc) as object), ...extra };
  return call(server, method, `${op.base}${url}`, headers, body);
}

export async function fixtureFor(
  server: TestServer,
  op: Operation,
  management: Schema,
  publicDoc: Schema,
): Promise<Fixture> {
  const project = await managedProject(server);
  const key = { value: project.liveKey };
  const owner = { authorization: project.owner.headers['authorization']! };
  const live = () => ({ 'x-api-key': key.value });
  const manageOps = operationsOf(management, '/api/v1');
  const publicOps = operationsOf(publicDoc, '/api/public/v1');
  const p = project.projectId;
  const ids: Record<string, string> = { projectId: p, teamId: project.teamId };
  const needed = new Set(op.pathParams.map((param) => param.name));

  const feature = await call(server, 'POST', '/api/public/v1/features', live(), {
    title: 'Fuzz target',
    description: 'A feature the fuzz test aims at.',
  });
  ids['featureId'] = feature?.id;
  if (needed.has('voterId')) {
    await call(server, 'PUT', `/api/public/v1/features/${feature?.id}/votes/fuzz-voter`, live());
    ids['voterId'] = 'fuzz-voter';
  }
  if (needed.has('commentId'))
    ids['commentId'] = (
      await call(server, 'POST', `/api/public/v1/features/${feature?.id}/comments`, live(), { body: 'A fuzz comment' })
    )?.id;
  if (needed.has('accountId')) {
    const member = await server.db.get<{ account_id: string }>(
      "SELECT account_id FROM team_members WHERE team_id = ? AND role = 'member'",
      [project.teamId],
    );
    ids['accountId'] = member!.account_id;
  }
  if (needed.has('tokenId')) ids['tokenId'] = (await call(server, 'GET', '/api/v1/me/tokens', owner))?.tokens?.[0]?.id;
  if (needed.has('keyId'))
    ids['keyId'] = (await call(server, 'GET', `/api/v1/projects/${p}/keys`, owner))?.keys?.[0]?.id;
  if (needed.has('inviteId'))
    ids['inviteId'] = (
      await createVia(server, manageOps, 'POST', '/teams/{teamId}/invites', `/teams/${project.teamId}/invites`, owner)
    )?.id;
  if (needed.has('entryId'))
    ids['entryId'] = (
      await createVia(server, manageOps, 'POST', '/projects/{projectId}/changelog', `/projects/${p}/changelog`, owner)
    )?.id;
  if (needed.has('messageId'))
    ids['messageId'] = (
      await createVia(
        server,
        manageOps,
        'POST',
        '/projects/{projectId}/site-config/messages',
        `/projects/${p}/site-config/messages`,
        owner,
      )
    )?.id;
  if (needed.has('environmentId'))
    ids['environmentId'] = (
      await createVia(
        server,
        manageOps,
        'POST',
        '/projects/{projectId}/site-config/environments',
        `/projects/${p}/site-config/environments`,
        owner,
      )
    )?.id;
  if (needed.has('key'))
    ids['key'] = (
      await createVia(
        server,
        manageOps,
        'POST',
        '/projects/{projectId}/translations/keys',
        `/projects/${p}/translations/keys`,
        owner,
      )
    )?.key;
  if (needed.has('locale')) ids['locale'] = 'de';
  if (needed.has('version'))
    ids['version'] = (
      await createVia(server, manageOps, 'POST', '/projects/{projectId}/releases', `/projects/${p}/releases`, owner)
    )?.version;
  if (needed.has('flagKey')) {
    await createVia(
      server,
      manageOps,
      'PUT',
      '/projects/{projectId}/site-config/flags/{flagKey}',
      `/projects/${p}/site-config/flags/fuzz-flag`,
      owner,
    );
    ids['flagKey'] = 'fuzz-flag';
  }
  if (needed.has('reportId')) {
    const kind = /\/(bugs|errors|logs)\//.exec(op.path)?.[1] ?? 'bugs';
    const create = publicOps.find((candidate) => candidate.method === 'POST' && candidate.path === `/${kind}`);
    if (create) await call(server, 'POST', `/api/public/v1/${kind}`, live(), sample(create.body, create.doc));
    const list = await call(server, 'GET', `/api/v1/projects/${p}/${kind}`, owner);
    const items = list && Object.values<any>(list).find(Array.isArray);
    if (items?.[0]?.id) ids['reportId'] = items[0].id;
  }
  for (const [name, value] of Object.entries(ids)) if (value === undefined) delete ids[name];

  const fixture: Fixture = {
    project,
    ids,
    headers: op.base === '/api/v1' ? owner : live(),
    renewKey: async () => {
      key.value = (await createApiKey(server.db, p, 'live', ALL_KEY_SCOPES)).key;
      if (op.base !== '/api/v1') fixture.headers = live();
    },
  };
  return fixture;
}
