/**
 * `signpost board` and `signpost moderation` as users run them: the CLI as a process against a
 * real Signpost server on a fresh database, signed in with a personal access token. What the CLI
 * changes is read back through the management and public APIs.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '@signpost/server/testing';
import { holdComment, holdFeature } from '@signpost/server/testing/moderation';
import { cliEntry } from './support.ts';

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Signs up and in, and creates a personal access token, through the management API. */
async function accountToken(origin: string, email: string): Promise<string> {
  const post = (path: string, body: unknown, cookie?: string) =>
    fetch(`${origin}/api/v1${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(cookie ? { cookie, 'x-requested-with': 'test' } : {}) },
      body: JSON.stringify(body),
    });
  const password = 'correct horse battery staple';
  assert.equal((await post('/auth/sign-up', { email, password, name: 'Ada' })).status, 202);
  const signIn = await post('/auth/sign-in', { email, password });
  assert.equal(signIn.status, 200);
  const cookie = signIn.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const created = await post('/me/tokens', { name: 'cli test' }, cookie);
  assert.equal(created.status, 201);
  return ((await created.json()) as { token: string }).token;
}

describe('signpost board and moderation', { timeout: 600_000 }, () => {
  let server: TestServer;
  let home: string;
  let token: string;
  let projectId: string;
  let liveKey: string;

  function signpost(args: string[]): Promise<Run> {
    const env: Record<string, string> = {};
    for (const [name, value] of Object.entries(process.env))
      if (!name.startsWith('SIGNPOST_') && value !== undefined) env[name] = value;
    Object.assign(env, {
      SIGNPOST_CONFIG_DIR: join(home, 'config'),
      SIGNPOST_URL: server.origin,
      SIGNPOST_TOKEN: token,
      ...(projectId ? { SIGNPOST_PROJECT: projectId } : {}),
    });
    return new Promise((resolve) => {
      const child = execFile(process.execPath, [cliEntry, ...args], { env, timeout: 90_000 }, (error, stdout, stderr) =>
        resolve({ status: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
      );
      child.stdin?.end('');
    });
  }
  const ok = async (args: string[]) => {
    const run = await signpost(args);
    assert.equal(run.status, 0, `signpost ${args.join(' ')} failed:\n${run.stdout}\n${run.stderr}`);
    return run;
  };
  const json = async (args: string[]) => JSON.parse((await ok([...args, '--json'])).stdout);
  const publicApi = async (path: string, init: RequestInit = {}) => {
    const response = await fetch(`${server.baseUrl}${path}`, {
      ...init,
      headers: { 'x-api-key': liveKey, 'content-type': 'application/json', ...init.headers },
    });
    return { status: response.status, body: (await response.json()) as any };
  };
  const newIdea = async (title: string) =>
    (
      await publicApi('/features', {
        method: 'POST',
        body: JSON.stringify({ title, description: `${title}, please!` }),
      })
    ).body.id as string;

  before(async () => {
    server = await startTestServer({ env: { PUBLIC_URL: 'https://signpost.example.test' } });
    home = mkdtempSync(join(tmpdir(), 'signpost-cli-board-'));
    token = await accountToken(server.origin, 'ada@example.com');
    projectId = (await json(['projects', 'create', 'Board App'])).id;
    liveKey = (
      await ok(['keys', 'create', '--env', 'live', '--scopes', 'public:read,features:read,features:write'])
    ).stdout.trim();
  });
  after(async () => {
    await server.close();
    rmSync(home, { recursive: true, force: true });
  });

  it('prints --help for every command', async () => {
    const commands = [
      ['board'],
      ['board', 'show'],
      ['board', 'set'],
      ['board', 'rotate-secret'],
      ['moderation'],
      ['moderation', 'list'],
      ['moderation', 'approve'],
      ['moderation', 'reject'],
    ];
    const runs = await Promise.all(commands.map((command) => signpost([...command, '--help'])));
    for (const [index, run] of runs.entries()) {
      assert.equal(run.status, 0, `${commands[index]!.join(' ')} --help`);
      assert.match(run.stdout, /Usage: signpost/, commands[index]!.join(' '));
    }
  });

  it('shows the board, changes its settings and clears them', async () => {
    const shown = await ok(['board', 'show']);
    assert.match(shown.stdout, /Board:\s+off/);
    assert.match(shown.stdout, /Address:\s+https:\/\/signpost\.example\.test\/b\/board-app/);
    assert.match(shown.stdout, /SSO secret:\s+none/);

    const set = await ok([
      'board',
      'set',
      '--enabled',
      'on',
      '--private',
      'off',
      '--title',
      'Board App ideas',
      '--logo-url',
      'https://cdn.example.com/logo.png',
      '--accent-color',
      '#4F46E5',
      '--custom-domain',
      'ideas.board-app.example',
      '--anonymous-votes',
      'on',
      '--moderation',
      'on',
    ]);
    assert.match(set.stdout, /Board:\s+on/);
    assert.match(set.stdout, /Address:\s+https:\/\/ideas\.board-app\.example\//);
    assert.match(set.stdout, /Moderation:\s+on/);
    const board = await json(['board', 'show']);
    assert.equal(board.shipOnPublish, true);
    assert.deepEqual(
      board.roadmapColumns.map((column: { status: string }) => column.status),
      ['open', 'planned', 'in-progress', 'in-review', 'accepted', 'done'],
    );
    // The roadmap columns and shipping setting keep their defaults (set in the dashboard).
    assert.deepEqual(
      { ...board, sso: undefined, roadmapColumns: undefined, shipOnPublish: undefined },
      {
        enabled: true,
        private: false,
        title: 'Board App ideas',
        logoUrl: 'https://cdn.example.com/logo.png',
        accentColor: '#4f46e5',
        customDomain: 'ideas.board-app.example',
        anonymousVotes: true,
        moderation: true,
        url: 'https://ideas.board-app.example/',
        sso: undefined,
        roadmapColumns: undefined,
        shipOnPublish: undefined,
      },
    );

    const cleared = await json(['board', 'set', '--custom-domain', 'none', '--title', 'none']);
    assert.equal(cleared.customDomain, null);
    assert.equal(cleared.title, null);
    assert.equal(cleared.url, 'https://signpost.example.test/b/board-app');
    assert.equal(cleared.moderation, true);
  });

  it('reports what the server refuses, and a command with nothing to change', async () => {
    const bad = await signpost(['board', 'set', '--accent-color', 'blue']);
    assert.equal(bad.status, 1);
    assert.match(bad.stderr, /accentColor/);
    const scheme = await signpost(['board', 'set', '--custom-domain', 'https://ideas.example.com']);
    assert.equal(scheme.status, 1);
    assert.match(scheme.stderr, /no scheme, port or path/);
    const nothing = await signpost(['board', 'set']);
    assert.notEqual(nothing.status, 0);
    assert.match(nothing.stderr, /Nothing to change/);
    const usage = await signpost(['board', 'set', '--enabled', 'maybe']);
    assert.equal(usage.status, 2);
    assert.equal((await json(['board', 'show'])).accentColor, '#4f46e5');
  });

  it('rotates the SSO secret: printed once with a warning, the hint shown afterwards', async () => {
    const first = await ok(['board', 'rotate-secret']);
    const secret = first.stdout.trim();
    assert.match(secret, /^[A-Za-z0-9_-]{43}$/);
    assert.match(first.stderr, /shown only now/);
    const shown = await ok(['board', 'show']);
    assert.match(shown.stdout, new RegExp(`SSO secret:\\s+set \\(…${secret.slice(-4)}\\)`));
    assert.ok(!shown.stdout.includes(secret));
    const second = await json(['board', 'rotate-secret']);
    assert.notEqual(second.secret, secret);
    assert.equal(second.hint, `…${second.secret.slice(-4)}`);
  });

  it('lists the moderation queue and approves or rejects ideas and comments', async () => {
    assert.match((await ok(['moderation', 'list'])).stdout, /Nothing waits for approval/);
    const waiting = await newIdea('Held idea');
    const spam = await newIdea('Spam idea');
    const publicIdea = await newIdea('Public idea');
    const comment = await publicApi(`/features/${publicIdea}/comments`, {
      method: 'POST',
      body: JSON.stringify({ body: 'A held comment', authorName: 'Grace' }),
    });
    assert.equal(comment.status, 201);
    assert.ok(await holdFeature(server.db, projectId, waiting));
    assert.ok(await holdFeature(server.db, projectId, spam));
    assert.ok(await holdComment(server.db, projectId, comment.body.id));

    const listed = await ok(['moderation', 'list']);
    assert.match(listed.stdout, /KIND\s+ID\s+IDEA/);
    assert.match(listed.stdout, new RegExp(`idea\\s+${waiting}\\s+Held idea`));
    assert.match(listed.stdout, new RegExp(`comment\\s+${comment.body.id}\\s+Public idea`));
    assert.match(listed.stdout, /A held comment/);
    const comments = await json(['moderation', 'list', '--kind', 'comment']);
    assert.deepEqual(
      comments.items.map((i: any) => i.id),
      [comment.body.id],
    );
    const paged = await ok(['moderation', 'list', '--limit', '1']);
    assert.match(paged.stdout, /\(1-1 of 3; use --limit and --offset for more\)/);

    assert.equal((await publicApi(`/features/${waiting}`)).status, 404);
    assert.match((await ok(['moderation', 'approve', 'idea', waiting])).stdout, /Approved idea/);
    assert.equal((await publicApi(`/features/${waiting}`)).status, 200);
    assert.match((await ok(['moderation', 'reject', 'idea', spam])).stdout, /Rejected idea/);
    const gone = await fetch(`${server.origin}/api/v1/projects/${projectId}/features/${spam}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(gone.status, 404);

    assert.equal((await publicApi(`/features/${publicIdea}`)).body.commentCount, 0);
    const approved = await json(['moderation', 'approve', 'comment', comment.body.id]);
    assert.deepEqual(approved, {
      kind: 'comment',
      id: comment.body.id,
      featureId: publicIdea,
      decision: 'approved',
    });
    assert.equal((await publicApi(`/features/${publicIdea}`)).body.commentCount, 1);

    const again = await signpost(['moderation', 'approve', 'comment', comment.body.id]);
    assert.equal(again.status, 1);
    assert.match(again.stderr, /not waiting for approval/);
    const wrongKind = await signpost(['moderation', 'approve', 'vote', 'x']);
    assert.equal(wrongKind.status, 2);
    assert.match((await ok(['moderation', 'list'])).stdout, /Nothing waits for approval/);
  });
});
