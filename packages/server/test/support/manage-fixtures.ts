/**
 * Fixtures for management API tests of project resources: a project owned by a team with an
 * owner, an admin and a member, plus an outsider from another team, each with a personal access
 * token and a management API client; and public API clients with the project's live and test keys.
 */
import { randomBytes } from 'node:crypto';
import { after, before } from 'node:test';
import { createAccount } from '../../src/resources/accounts/index.ts';
import { createToken } from '../../src/resources/tokens/index.ts';
import { nowIso } from '../../src/kernel/ids.ts';
import { Api } from './api.ts';
import { startTestServer, type TestProject, type TestServer } from './server.ts';

export type TeamRole = 'owner' | 'admin' | 'member';

export interface ManagedProject extends TestProject {
  teamId: string;
  /** Management API (`/api/v1`) clients, signed in with a personal access token. */
  owner: Api;
  admin: Api;
  member: Api;
  /** Signed in, but on another team: must never reach this project. */
  outsider: Api;
  /** Public API clients with the project's live and test keys. */
  live: Api;
  test: Api;
  /** Public API without a key (site config, version check). */
  anonymous: Api;
}

export function managementBaseUrl(server: TestServer): string {
  return `${server.origin}/api/v1`;
}

async function account(server: TestServer, name: string): Promise<{ id: string; token: string }> {
  const email = `${name.toLowerCase()}-${randomBytes(4).toString('hex')}@example.com`;
  const row = await server.db.transaction((tx) =>
    createAccount(tx, { email, name, passwordHash: null, verified: true }),
  );
  const { token } = await createToken(server.db, row.id, `${name} test token`, undefined);
  return { id: row.id, token };
}

export function managementClient(server: TestServer, token: string): Api {
  return new Api(managementBaseUrl(server), null, { authorization: `Bearer ${token}` });
}

/** A new project owned by a new team, with every role's client. */
export async function managedProject(server: TestServer): Promise<ManagedProject> {
  const project = await server.createProject();
  const owner = await account(server, 'Owner');
  const team = (await server.db.get<{ id: string }>('SELECT id FROM teams WHERE owner_account_id = ?', [owner.id]))!;
  await server.db.run('UPDATE projects SET team_id = ? WHERE id = ?', [team.id, project.projectId]);
  const join = async (name: string, role: TeamRole) => {
    const member = await account(server, name);
    await server.db.run('INSERT INTO team_members (team_id, account_id, role, created_at) VALUES (?, ?, ?, ?)', [
      team.id,
      member.id,
      role,
      nowIso(),
    ]);
    return member;
  };
  const admin = await join('Admin', 'admin');
  const member = await join('Member', 'member');
  const outsider = await account(server, 'Outsider');
  const publicApi = new Api(server.baseUrl, null);
  return {
    ...project,
    teamId: team.id,
    owner: managementClient(server, owner.token),
    admin: managementClient(server, admin.token),
    member: managementClient(server, member.token),
    outsider: managementClient(server, outsider.token),
    live: publicApi.withKey(project.liveKey),
    test: publicApi.withKey(project.testKey),
    anonymous: publicApi,
  };
}

/** A managed project together with the test server it lives on. */
export interface ManagedSuite extends ManagedProject {
  server: TestServer;
}

/**
 * For the describe block it is called in: starts a test server with a managed project before the
 * block's tests and closes the server after them. The returned object is empty until its `before`
 * hook has run, so read it only inside tests and hooks.
 */
export function managedProjectSuite(): ManagedSuite {
  const suite = {} as ManagedSuite;
  before(async () => {
    const server = await startTestServer();
    Object.assign(suite, await managedProject(server), { server });
  });
  after(() => suite.server.close());
  return suite;
}
