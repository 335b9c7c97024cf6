/**
 * Seeding for the dashboard tests, through the HTTP APIs a client would use: an account (sign-up:
 * the session cookie), its team's project with the board on, a live key, ideas submitted with that
 * key (statuses and internal set through the management API), and a second account invited to
 * the team as a member.
 */
import assert from 'node:assert/strict';
import type { BrowserContext } from 'playwright-core';
import type { DashboardEnv } from './support.ts';

export interface SeededProject {
  projectId: string;
  slug: string;
  boardUrl: string;
  liveKey: string;
  cookie: string;
  /** Management API call with the session cookie. */
  manage(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  /** Public API call with the live key. */
  publicApi(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  addIdea(idea: { title: string; status?: string; internal?: boolean; type?: 'feature' | 'bug' }): Promise<string>;
  /** Signs the browser context in as the project's owner. */
  signIn(context: BrowserContext): Promise<void>;
  /** A second account, invited to the project's team as a member and signed up through the HTTP APIs. */
  addMember(): Promise<{ email: string; signIn(context: BrowserContext): Promise<void> }>;
}

/** Adds a session's cookies to a browser context. */
function cookieSignIn(env: DashboardEnv, cookies: string[]) {
  return async (context: BrowserContext) => {
    await context.addCookies(
      cookies.map((pair) => {
        const at = pair.indexOf('=');
        return { name: pair.slice(0, at), value: pair.slice(at + 1), url: env.origin };
      }),
    );
  };
}

/** Signs up (or in) through the HTTP API: the session's cookies. */
async function session(env: DashboardEnv, email: string, name: string): Promise<string[]> {
  const password = 'quiet harbour lantern 42';
  const headers = { 'x-requested-with': 'test', origin: env.origin };
  const signUp = await call(`${env.origin}/api/v1/auth/sign-up`, 'POST', headers, { email, password, name });
  assert.ok(signUp.status < 300, JSON.stringify(signUp.body));
  const signIn = await call(`${env.origin}/api/v1/auth/sign-in`, 'POST', headers, { email, password });
  assert.equal(signIn.status, 200, JSON.stringify(signIn.body));
  return signIn.headers.getSetCookie().map((line) => line.split(';')[0]!);
}

async function call(url: string, method: string, headers: Record<string, string>, body?: unknown) {
  const response = await fetch(url, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? null : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null, headers: response.headers };
}

export async function seedProject(env: DashboardEnv, name: string): Promise<SeededProject> {
  const unique = () => `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  const cookies = await session(env, `owner-${unique()}@example.com`, 'Pat Owner');
  const cookie = cookies.join('; ');
  const manage = (method: string, path: string, body?: unknown) =>
    call(`${env.origin}/api/v1${path}`, method, { cookie, 'x-requested-with': 'test', origin: env.origin }, body);
  const slug = `p-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
  const project = await manage('POST', '/projects', { name, slug });
  assert.equal(project.status, 201, JSON.stringify(project.body));
  const projectId = project.body.id as string;
  const board = await manage('PATCH', `/projects/${projectId}/board`, { enabled: true });
  assert.equal(board.status, 200, JSON.stringify(board.body));
  const key = await manage('POST', `/projects/${projectId}/keys`, {
    name: 'Test key',
    environment: 'live',
    scopes: ['features:read', 'features:write'],
  });
  assert.equal(key.status, 201, JSON.stringify(key.body));
  const liveKey = (key.body.key ?? key.body.secret) as string;
  const publicApi = (method: string, path: string, body?: unknown) =>
    call(`${env.origin}/api/public/v1${path}`, method, { 'x-api-key': liveKey }, body);
  return {
    projectId,
    slug: project.body.slug,
    boardUrl: `${env.origin}/b/${project.body.slug}`,
    liveKey,
    cookie,
    manage,
    publicApi,
    addIdea: async (idea) => {
      const created = await publicApi('POST', '/features', {
        title: idea.title,
        description: `${idea.title}: described for the roadmap test.`,
        ...(idea.type ? { type: idea.type } : {}),
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const id = created.body.id as string;
      const changes = { ...(idea.status ? { status: idea.status } : {}), ...(idea.internal ? { internal: true } : {}) };
      if (Object.keys(changes).length > 0) {
        const patched = await manage('PATCH', `/projects/${projectId}/features/${id}`, changes);
        assert.equal(patched.status, 200, JSON.stringify(patched.body));
      }
      return id;
    },
    signIn: cookieSignIn(env, cookies),
    addMember: async () => {
      const email = `member-${unique()}@example.com`;
      const memberCookies = await session(env, email, 'Mo Member');
      const { teamId } = (await manage('GET', `/projects/${projectId}`)).body;
      const invite = await manage('POST', `/teams/${teamId}/invites`, { email });
      assert.equal(invite.status, 201, JSON.stringify(invite.body));
      const mail = await env.mailbox.waitFor((m) => m.to.includes(email) && /invited/.test(m.subject));
      const token = mail.links
        .find((href) => href.includes('/invites/'))!
        .split('/invites/')[1]!
        .split(/[?#]/)[0]!;
      const accepted = await call(
        `${env.origin}/api/v1/invites/${token}/accept`,
        'POST',
        { cookie: memberCookies.join('; '), 'x-requested-with': 'test', origin: env.origin },
        {},
      );
      assert.ok(accepted.status < 300, JSON.stringify(accepted.body));
      return { email, signIn: cookieSignIn(env, memberCookies) };
    },
  };
}
