/**
 * The usual start of a public API test: a test server on a fresh database with one new project,
 * and a public API client holding the project's live key (or, with `key: null`, no key, for the
 * routes anyone may call). The caller closes the server.
 */
import { Api } from './api.ts';
import { startTestServer, type TestProject, type TestServer } from './server.ts';

export interface PublicProject {
  server: TestServer;
  project: TestProject;
  api: Api;
}

export async function startPublicProject(options: { key?: 'live' | null } = {}): Promise<PublicProject> {
  const server = await startTestServer();
  const project = await server.createProject();
  const api = new Api(server.baseUrl, options.key === null ? null : project.liveKey);
  return { server, project, api };
}
