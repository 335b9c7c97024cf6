/**
 * The management commands as users run them: `signpost` as a process against a real Signpost
 * server (started in this process on a fresh database), signed in with a personal access token
 * created through the management API. What the CLI enters is read back from the public API.
 */
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '@signpost/server/testing';
import { cliEntry } from './support.ts';

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Signs up and in to an account and creates a personal access token for it, through the management API. */
async function accountToken(origin: string, email: string): Promise<string> {
  const signUp = await fetch(`${origin}/api/v1/auth/sign-up`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'correct horse battery staple', name: email.split('@')[0] }),
  });
  assert.equal(signUp.status, 202, await signUp.clone().text());
  const signIn = await fetch(`${origin}/api/v1/auth/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'correct horse battery staple' }),
  });
  assert.equal(signIn.status, 200, await signIn.clone().text());
  const cookie = signIn.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const created = await fetch(`${origin}/api/v1/me/tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie, 'x-requested-with': 'test' },
    body: JSON.stringify({ name: 'cli test' }),
  });
  assert.equal(created.status, 201, await created.clone().text());
  return ((await created.json()) as { token: string }).token;
}

describe('signpost management commands', { timeout: 120_000 }, () => {
  let server: TestServer;
  let home: string;
  let token: string;
  let outsiderToken: string;
  let projectId: string;
  let liveKey: string;

  /** Runs the CLI with its own config dir (and no SIGNPOST_* from the outer shell). */
  function signpost(
    args: string[],
    options: { env?: Record<string, string>; stdin?: string; configDir?: string } = {},
  ): Promise<Run> {
    const env: Record<string, string> = {};
    for (const [name, value] of Object.entries(process.env))
      if (!name.startsWith('SIGNPOST_') && value !== undefined) env[name] = value;
    Object.assign(env, { SIGNPOST_CONFIG_DIR: options.configDir ?? join(home, 'config') }, options.env);
    return new Promise((resolve) => {
      const child = execFile(
        process.execPath,
        [cliEntry, ...args],
        { env, timeout: 30_000 },
        (error, stdout, stderr) => {
          resolve({ status: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
        },
      );
      child.stdin?.end(options.stdin ?? '');
    });
  }
  const ok = async (args: string[], options?: Parameters<typeof signpost>[1]) => {
    const run = await signpost(args, options);
    assert.equal(run.status, 0, `signpost ${args.join(' ')} failed:\n${run.stdout}\n${run.stderr}`);
    return run;
  };
  const json = async (args: string[]) => JSON.parse((await ok([...args, '--json'])).stdout);
  const publicPost = async (path: string, key: string, body: unknown) => {
    const response = await fetch(`${server.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    assert.equal(response.status, 201);
    return (await response.json()) as any;
  };
  const publicGet = async (path: string, key?: string) => {
    const response = await fetch(`${server.baseUrl}${path}`, { headers: key ? { 'x-api-key': key } : {} });
    return { status: response.status, body: (await response.json()) as any };
  };

  before(async () => {
    server = await startTestServer();
    home = mkdtempSync(join(tmpdir(), 'signpost-cli-manage-'));
    token = await accountToken(server.origin, 'ada@example.com');
    outsiderToken = await accountToken(server.origin, 'mallory@example.com');
  });
  after(async () => {
    await server.close();
    rmSync(home, { recursive: true, force: true });
  });

  it('prints --help for every command', async () => {
    const commands = [
      [],
      ['server'],
      ['server', 'start'],
      ['server', 'migrate'],
      ['login'],
      ['signup'],
      ['logout'],
      ['whoami'],
      ['projects'],
      ['projects', 'list'],
      ['projects', 'create'],
      ['projects', 'update'],
      ['projects', 'use'],
      ['projects', 'show'],
      ['keys', 'list'],
      ['keys', 'create'],
      ['keys', 'revoke'],
      ['features', 'list'],
      ['features', 'show'],
      ['features', 'update'],
      ['features', 'merge'],
      ['features', 'delete'],
      ['changelog', 'list'],
      ['changelog', 'create'],
      ['changelog', 'edit'],
      ['changelog', 'publish'],
      ['changelog', 'unpublish'],
      ['changelog', 'delete'],
      ['tags', 'list'],
      ['tags', 'create'],
      ['tags', 'rename'],
      ['tags', 'delete'],
      ['features', 'tag'],
      ['releases', 'list'],
      ['releases', 'create'],
      ['releases', 'edit'],
      ['releases', 'delete'],
      ['site', 'show'],
      ['site', 'maintenance'],
      ['site', 'debug'],
      ['site', 'flags', 'set'],
      ['site', 'messages', 'add'],
      ['site', 'envs', 'add'],
      ['bugs', 'list'],
      ['errors', 'show'],
      ['logs', 'resolve'],
      ['logs', 'lines'],
      ['translations', 'locales'],
      ['translations', 'keys'],
      ['translations', 'import'],
      ['translations', 'export'],
      ['translations', 'missing'],
    ];
    const runs = await Promise.all(commands.map((command) => signpost([...command, '--help'])));
    for (const [index, run] of runs.entries()) {
      assert.equal(run.status, 0, `${commands[index]!.join(' ')} --help`);
      assert.match(run.stdout, /Usage: signpost/, commands[index]!.join(' '));
    }
  });

  it('signs in with a personal access token, saved per server with mode 0600', async () => {
    const bad = await signpost(['login', '--token', 'sp_pat_not_a_real_token', '--url', server.origin]);
    assert.equal(bad.status, 1);
    assert.match(bad.stderr, /Invalid personal access token/);

    const notSignedIn = await signpost(['whoami', '--url', server.origin]);
    assert.equal(notSignedIn.status, 3);
    assert.match(notSignedIn.stderr, /Not signed in/);

    const login = await ok(['login', '--token', '-', '--url', `${server.origin}/`], { stdin: `${token}\n` });
    assert.match(login.stdout, /Signed in to http:\/\/127\.0\.0\.1:\d+ as ada@example\.com/);
    const file = join(home, 'config', 'config.json');
    if (process.platform !== 'win32') assert.equal(statSync(file).mode & 0o777, 0o600);
    const saved = JSON.parse(readFileSync(file, 'utf8'));
    assert.equal(saved.servers[server.origin].token, token);

    const me = await json(['whoami']);
    assert.equal(me.account.email, 'ada@example.com');
    assert.equal(me.url, server.origin);
  });

  it('signs up and signs in with e-mail and password, keeping only a personal access token', async () => {
    const configDir = join(home, 'eve');
    const signup = await signpost(
      ['signup', '--email', 'eve@example.com', '--name', 'Eve', '--password-stdin', '--url', server.origin],
      {
        configDir,
        stdin: 'a long enough password\n',
      },
    );
    assert.equal(signup.status, 0, signup.stderr);
    assert.match(signup.stdout, /Signed in to .* as eve@example\.com/);
    assert.match(signup.stdout, /Check your e-mail: a verification link went to eve@example\.com/);
    const saved = JSON.parse(readFileSync(join(configDir, 'config.json'), 'utf8'));
    assert.match(saved.servers[server.origin].token, /^sp_pat_/);
    const tokens = await fetch(`${server.origin}/api/v1/me/tokens`, {
      headers: { authorization: `Bearer ${saved.servers[server.origin].token}` },
    });
    const listed = (await tokens.json()) as { tokens: Array<{ name: string }> };
    assert.match(listed.tokens[0]!.name, /^signpost CLI \(/);

    const wrong = await signpost(['login', '--email', 'eve@example.com', '--password-stdin'], {
      configDir,
      stdin: 'not the password\n',
    });
    assert.equal(wrong.status, 1);
    assert.match(wrong.stderr, /Wrong e-mail address or password/);
    const again = await signpost(['login', '--email', 'eve@example.com', '--password-stdin'], {
      configDir,
      stdin: 'a long enough password\n',
    });
    assert.equal(again.status, 0, again.stderr);
    assert.equal((await signpost(['whoami', '--json'], { configDir })).status, 0);
    // A taken address: the server's answer is the one a new address gets; signing in tells.
    const taken = await signpost(['signup', '--email', 'eve@example.com', '--password-stdin'], {
      configDir,
      stdin: "someone else's long password\n",
    });
    assert.equal(taken.status, 1);
    assert.match(
      taken.stderr,
      /Could not sign in as eve@example\.com\. If this address already has an account, an e-mail went to it/,
    );
    const owner = await signpost(['signup', '--email', 'eve@example.com', '--password-stdin'], {
      configDir,
      stdin: 'a long enough password\n',
    });
    assert.equal(owner.status, 0, owner.stderr);
    const weak = await signpost(['signup', '--email', 'weak@example.com', '--password-stdin'], {
      configDir,
      stdin: 'password123!\n',
    });
    assert.equal(weak.status, 1);
    assert.match(weak.stderr, /too easy to guess/);
    assert.equal((await signpost(['login'], { configDir })).status, 2);
  });

  it('creates a project and keys that work on the public API; revoking a key stops it', async () => {
    const project = await json(['projects', 'create', 'CLI App', '--locales', 'en,de', '--use']);
    projectId = project.id;
    assert.equal(project.defaultLocale, 'en');
    const listed = await json(['projects', 'list']);
    assert.ok(listed.projects.some((p: any) => p.id === projectId));
    assert.match((await ok(['projects', 'list'])).stdout, new RegExp(`\\*\\s+${projectId}\\s+CLI App`));

    const live = await ok([
      'keys',
      'create',
      '--env',
      'live',
      '--scopes',
      'public:read,features:read,features:write,bugs:write,errors:write,logs:write',
      '--name',
      'web',
    ]);
    liveKey = live.stdout.trim();
    assert.match(liveKey, /^svc_live_/);
    // A ready DSN for Sentry SDKs, with the whole key only now.
    assert.match(live.stderr, new RegExp(`Sentry DSN: http://${liveKey}@[^/]+/\\d+\\n`));
    assert.match((await ok(['keys', 'list'])).stdout, /Sentry DSN: http:\/\/<key>@[^/]+\/\d+ /);
    const testKey = (await json(['keys', 'create', '--env', 'test', '--scopes', 'features:read'])).key as string;
    assert.match(testKey, /^svc_test_/);
    assert.equal((await publicGet('/features', liveKey)).status, 200);

    const keys = await json(['keys', 'list']);
    const testSummary = keys.keys.find((k: any) => k.environment === 'test');
    assert.ok(testKey.startsWith(testSummary.prefix));
    await ok(['keys', 'revoke', testSummary.id]);
    assert.equal((await publicGet('/features', testKey)).status, 401);

    const updated = await json(['projects', 'update', projectId, '--name', 'CLI App 2']);
    assert.equal(updated.name, 'CLI App 2');
  });

  it('creates a publishable key that submits but cannot change features; keys list tells secret from publishable', async () => {
    const created = await json([
      'keys',
      'create',
      '--env',
      'live',
      '--scopes',
      'features:read,features:write',
      '--publishable',
      '--name',
      'widget',
    ]);
    assert.equal(created.apiKey.publishable, true);
    const send = (method: string, path: string, key: string, body: unknown) =>
      fetch(`${server.baseUrl}${path}`, {
        method,
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const submitted = await send('POST', '/features', created.key, {
      title: 'From the widget',
      description: 'Sent with a publishable key',
      type: 'feature',
    });
    assert.equal(submitted.status, 201);
    const featureId = ((await submitted.json()) as { id: string }).id;
    const refused = await send('PATCH', `/features/${featureId}`, created.key, { status: 'declined' });
    assert.equal(refused.status, 403);
    assert.deepEqual(await refused.json(), { error: 'Publishable keys cannot modify features' });
    assert.equal((await send('PATCH', `/features/${featureId}`, liveKey, { status: 'planned' })).status, 200);

    const listed = await json(['keys', 'list']);
    assert.equal(listed.keys.find((k: any) => k.name === 'widget').publishable, true);
    assert.equal(listed.keys.find((k: any) => k.name === 'web').publishable, false);
    const table = (await ok(['keys', 'list'])).stdout;
    assert.match(table, /widget\s+live\s+publishable\s/);
    assert.match(table, /web\s+live\s+secret\s/);
    await ok(['features', 'delete', featureId]); // the next test counts this project's features
  });

  it('triages features: status and visibility follow on the public roadmap; duplicates merge', async () => {
    const submit = async (title: string) => {
      const response = await fetch(`${server.baseUrl}/features`, {
        method: 'POST',
        headers: { 'x-api-key': liveKey, 'content-type': 'application/json' },
        body: JSON.stringify({ title, description: `${title}, please, for everyone.` }),
      });
      return ((await response.json()) as { id: string }).id;
    };
    const keep = await submit('Dark mode');
    const dup = await submit('Night theme');
    for (const [id, voter] of [
      [keep, 'ann'],
      [dup, 'ann'],
      [dup, 'bob'],
    ] as const) {
      await fetch(`${server.baseUrl}/features/${id}/votes/${voter}`, {
        method: 'PUT',
        headers: { 'x-api-key': liveKey },
      });
    }
    await ok(['features', 'update', keep, '--status', 'planned', '--notes', 'Q3']);
    const roadmap = (await publicGet('/roadmap?status=planned', liveKey)).body;
    assert.deepEqual(
      roadmap.columns[0].items.map((i: any) => i.title),
      ['Dark mode'],
    );

    const merged = await json(['features', 'merge', dup, '--into', keep]);
    assert.equal(merged.feature.voteCount, 2);
    assert.equal(merged.votesAlreadyPresent, 1);
    assert.equal((await publicGet(`/features/${keep}`, liveKey)).body.voteCount, 2);

    await ok(['features', 'update', keep, '--internal']);
    assert.deepEqual((await publicGet('/roadmap?status=planned', liveKey)).body.columns[0].items, []);
    const listed = await json(['features', 'list', '--internal']);
    assert.deepEqual(
      listed.features.map((f: any) => [f.id, f.developerNotes]),
      [[keep, 'Q3']],
    );
    assert.match((await ok(['features', 'show', keep])).stdout, /internal/);
    await ok(['features', 'delete', keep]);
    assert.equal((await json(['features', 'list'])).total, 0);
  });

  it('manages tags and tags ideas with them', async () => {
    const created = await json(['tags', 'create', 'Mobile', '--color', '#3366FF']);
    assert.equal(created.name, 'Mobile');
    assert.equal(created.color, '#3366ff');
    await ok(['tags', 'create', 'Dark mode']);
    const duplicate = await signpost(['tags', 'create', 'Mobile']);
    assert.equal(duplicate.status, 1);
    assert.match(duplicate.stderr, /already exists/);
    const badColor = await signpost(['tags', 'create', 'Web', '--color', 'blue']);
    assert.equal(badColor.status, 2);
    assert.match(badColor.stderr, /#rrggbb/);

    const listed = await ok(['tags', 'list']);
    assert.match(listed.stdout, /Dark mode[\s\S]*Mobile/);
    assert.match(listed.stdout, /#3366ff/);

    await ok(['tags', 'rename', 'mobile', 'Phones', '--color', 'none']);
    const renamed = (await json(['tags', 'list'])).tags.find((t: any) => t.id === created.id);
    assert.deepEqual([renamed.name, renamed.color], ['Phones', null]);
    assert.equal((await signpost(['tags', 'rename', 'Phones'])).status, 2);

    const feature = await publicPost('/features', liveKey, {
      title: 'Tag me',
      description: 'An idea to carry some tags.',
    });
    const tagged = await json(['features', 'tag', feature.id, 'Phones', 'Dark mode']);
    assert.deepEqual(
      tagged.tags.map((t: any) => t.name),
      ['Dark mode', 'Phones'],
    );
    assert.match((await ok(['features', 'tag', feature.id, 'Phones'])).stdout, /tagged Phones/);
    const unknown = await signpost(['features', 'tag', feature.id, 'Nope']);
    assert.equal(unknown.status, 2);
    assert.match(unknown.stderr, /No tag "Nope"/);
    assert.equal((await signpost(['features', 'tag', feature.id])).status, 2);
    assert.equal((await signpost(['features', 'tag', 'feat_missing', '--clear'])).status, 1);
    assert.match((await ok(['features', 'tag', feature.id, '--clear'])).stdout, /no tags/);

    await ok(['tags', 'delete', 'Phones']);
    await ok(['tags', 'delete', 'Dark mode']);
    assert.deepEqual((await json(['tags', 'list'])).tags, []);
    await ok(['features', 'delete', feature.id]);
  });

  it('manages the changelog: what it publishes shows in the public changelog', async () => {
    const notes = join(home, 'notes.html');
    writeFileSync(notes, '<p>Search is <strong>twice</strong> as fast.<script>alert(1)</script></p>');
    const entry = await json([
      'changelog',
      'create',
      '--summary',
      'Faster search',
      '--status',
      'improved',
      '--description-file',
      notes,
    ]);
    assert.equal(entry.published, false);
    assert.deepEqual((await publicGet('/changelog', liveKey)).body.entries, []);

    await ok(['changelog', 'publish', entry.id]);
    const published = (await publicGet('/changelog', liveKey)).body.entries;
    assert.equal(published.length, 1);
    assert.equal(published[0].summary, 'Faster search');
    assert.equal(published[0].statusLabel, 'Improved');
    assert.equal(published[0].description, '<p>Search is <strong>twice</strong> as fast.</p>');

    await ok(['changelog', 'edit', entry.id, '--summary', 'Much faster search']);
    assert.match((await ok(['changelog', 'list'])).stdout, /Much faster search/);
    await ok(['changelog', 'unpublish', entry.id]);
    assert.deepEqual((await publicGet('/changelog', liveKey)).body.entries, []);
    await ok(['changelog', 'delete', entry.id]);
    assert.equal((await json(['changelog', 'list'])).total, 0);
  });

  it('manages releases for the public version check', async () => {
    await ok(['releases', 'create', '1.0.0', '--title', 'First', '--required']);
    const minor = await json([
      'releases',
      'create',
      '1.1.0',
      '--title',
      'Dark mode',
      '--notes',
      'Adds dark mode',
      '--download-url',
      'https://example.com/1.1.0',
    ]);
    assert.equal(minor.isBeta, false);
    const check = (await publicGet(`/version-check?projectId=${projectId}&currentVersion=1.0.0`)).body;
    assert.equal(check.updateAvailable, true);
    assert.equal(check.updateType, 'minor');
    assert.equal(check.latestVersion.title, 'Dark mode');

    await ok(['releases', 'edit', '1.1.0', '--required']);
    assert.equal(
      (await publicGet(`/version-check?projectId=${projectId}&currentVersion=1.0.0`)).body.updateRequired,
      true,
    );
    assert.match((await ok(['releases', 'list'])).stdout, /1\.1\.0\s+\S+\s+no\s+yes\s+Dark mode/);

    const invalid = await signpost(['releases', 'create', '1.2']);
    assert.equal(invalid.status, 1);
    assert.match(invalid.stderr, /SemVer/);
    await ok(['releases', 'delete', '1.1.0']);
    assert.equal(
      (await publicGet(`/version-check?projectId=${projectId}&currentVersion=1.0.0`)).body.updateAvailable,
      false,
    );
  });

  it('manages the site configuration shown by the public GET /site-config', async () => {
    const before = (await publicGet(`/site-config?projectId=${projectId}`)).body;
    await ok([
      'site',
      'maintenance',
      'on',
      '--type',
      'banner',
      '--until',
      '2030-01-01T00:00:00Z',
      '--status-url',
      'https://status.example.com',
      '--status-link',
      '--allow-ips',
      '10.0.0.0/8',
    ]);
    await ok(['site', 'flags', 'set', 'new-ui', 'on']);
    await ok(['site', 'messages', 'add', '--type', 'warning', '--text', 'Maintenance tonight', '--priority', '5']);
    await ok([
      'site',
      'envs',
      'add',
      'Staging',
      '--slug',
      'staging',
      '--url',
      'https://staging.example.com',
      '--color',
      '#f59e0b',
      '--debug',
    ]);
    await ok(['site', 'debug', 'on']);

    const config = (await publicGet(`/site-config?projectId=${projectId}`)).body;
    assert.ok(config.lastUpdated > before.lastUpdated);
    assert.equal(config.maintenance.enabled, true);
    assert.equal(config.maintenance.type, 'banner');
    assert.equal(config.maintenance.expectedRestoration, '2030-01-01T00:00:00.000Z');
    assert.equal(config.maintenance.showStatusLink, true);
    assert.deepEqual(config.maintenance.whitelist.ips, ['10.0.0.0/8']);
    assert.deepEqual(
      config.featureFlags.map((f: any) => [f.key, f.enabled]),
      [['new-ui', true]],
    );
    assert.deepEqual(
      config.messages.map((m: any) => [m.type, m.text, m.priority]),
      [['warning', 'Maintenance tonight', 5]],
    );
    assert.deepEqual(
      config.environments.map((e: any) => [e.slug, e.url, e.color, e.debugEnabled]),
      [['staging', 'https://staging.example.com', '#f59e0b', true]],
    );
    assert.equal(config.debugMode, true);

    await ok(['site', 'maintenance', 'off']);
    await ok(['site', 'flags', 'delete', 'new-ui']);
    await ok(['site', 'envs', 'edit', 'staging', '--no-debug']);
    const after = (await publicGet(`/site-config?projectId=${projectId}`)).body;
    assert.equal(after.maintenance.enabled, false);
    assert.deepEqual(after.featureFlags, []);
    assert.equal(after.environments[0].debugEnabled, false);
    const shown = await ok(['site', 'show']);
    assert.match(shown.stdout, /Maintenance tonight/);
  });

  it('imports and exports translation files; missing keys become keys', async () => {
    const dir = join(home, 'locales');
    mkdirSync(join(dir, 'de'), { recursive: true });
    writeFileSync(join(dir, 'en.json'), JSON.stringify({ nav: { home: 'Home', help: 'Help' } }));
    writeFileSync(join(dir, 'de.json'), JSON.stringify({ 'nav.home': 'Startseite' }));
    writeFileSync(join(dir, 'de', 'checkout.json'), JSON.stringify({ 'checkout.pay': 'Jetzt bezahlen' }));
    const imported = await json([
      'translations',
      'import',
      join(dir, 'en.json'),
      join(dir, 'de.json'),
      join(dir, 'de', 'checkout.json'),
    ]);
    assert.deepEqual(
      imported.imports.map((i: any) => [i.locale, i.namespace, i.created.length, i.updated.length]),
      [
        ['en', null, 2, 0],
        ['de', null, 0, 1],
        ['de', 'checkout', 1, 0],
      ],
    );

    const german = (await publicGet('/translations?locale=de', liveKey)).body;
    assert.deepEqual(german.translations, {
      'checkout.pay': 'Jetzt bezahlen',
      'nav.help': 'Help',
      'nav.home': 'Startseite',
    });

    await ok(['translations', 'set', 'nav.help', 'de', 'Hilfe']);
    assert.equal((await publicGet('/translations?locale=de', liveKey)).body.translations['nav.help'], 'Hilfe');

    const single = JSON.parse((await ok(['translations', 'export', '--locale', 'de', '--format', 'nested'])).stdout);
    assert.deepEqual(single, { checkout: { pay: 'Jetzt bezahlen' }, nav: { help: 'Hilfe', home: 'Startseite' } });
    const out = join(home, 'export');
    await ok(['translations', 'export', '--out', out]);
    assert.deepEqual(JSON.parse(readFileSync(join(out, 'en.json'), 'utf8')), {
      'nav.help': 'Help',
      'nav.home': 'Home',
    });
    assert.deepEqual(Object.keys(JSON.parse(readFileSync(join(out, 'de.json'), 'utf8'))).sort(), [
      'checkout.pay',
      'nav.help',
      'nav.home',
    ]);

    const report = await fetch(`${server.baseUrl}/i18n-telemetry`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': liveKey },
      body: JSON.stringify({ locale: 'de', missingKeys: ['promo.banner', 'promo.banner', 'nav.home'] }),
    });
    assert.equal(report.status, 200);
    const missing = await json(['translations', 'missing']);
    assert.deepEqual(
      missing.missing.map((m: any) => [m.key, m.locale, m.occurrences]),
      [['promo.banner', 'de', 1]],
    );
    const added = await json(['translations', 'missing', '--add', '--namespace', 'promo']);
    assert.deepEqual(added.created, ['promo.banner']);
    assert.equal(
      (await publicGet('/translations?locale=de&namespace=promo', liveKey)).body.translations['promo.banner'],
      'promo.banner',
    );
    assert.deepEqual((await json(['i18n', 'locales', '--supported', 'en,de,fr'])).supportedLocales, ['en', 'de', 'fr']);
  });

  it('triages bugs, errors and logs', async () => {
    const post = (path: string, body: unknown) =>
      fetch(`${server.baseUrl}${path}`, {
        method: 'POST',
        headers: { 'x-api-key': liveKey, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const report = {
      title: 'Checkout crashes',
      message: 'TypeError: total is undefined',
      errorType: 'TypeError',
      severity: 'critical',
      breadcrumbs: [{ timestamp: '2026-11-22T10:00:00.000Z', type: 'click', message: 'Pay button' }],
    };
    await post('/errors', report);
    await post('/errors', report);
    await post('/bugs', { title: 'Typo on pricing', message: 'It says pirce instead of price', severity: 'low' });
    await post('/logs', {
      logs: [
        { level: 'error', message: 'Payment timeout' },
        { level: 'info', message: 'Signed in' },
      ],
    });

    const errors = await json(['errors', 'list', '--severity', 'critical,high']);
    assert.equal(errors.total, 1);
    assert.equal(errors.errors[0].occurrences, 2);
    const shown = await ok(['errors', 'show', errors.errors[0].id]);
    assert.match(shown.stdout, /Pay button/);
    assert.match((await ok(['errors', 'list'])).stdout, /open 1, resolved 0, ignored 0/);
    await ok(['errors', 'resolve', errors.errors[0].id]);
    assert.equal((await json(['errors', 'list', '--status', 'open'])).total, 0);

    const bug = (await json(['bugs', 'list', '--search', 'pirce'])).bugs[0];
    assert.equal((await json(['bugs', 'ignore', bug.id])).status, 'ignored');
    assert.equal((await json(['logs', 'list', '--level', 'error'])).logs[0].message, 'Payment timeout');
    assert.equal((await signpost(['logs', 'list', '--level', 'fatal'])).status, 1);
    await post('/logs', {
      logs: [
        { level: 'info', message: 'Order paid', data: { orderId: 41 } },
        { level: 'info', message: 'Order paid', data: { orderId: 42 } },
      ],
    });
    const lines = await json(['logs', 'lines', '--search', 'data.orderId = 42']);
    assert.deepEqual(
      lines.lines.map((l: { message: string; data: unknown }) => [l.message, l.data]),
      [['Order paid', { orderId: 42 }]],
    );
    assert.match((await ok(['logs', 'lines', '--level', 'info'])).stdout, /"orderId":41/);
  });

  it('fails clearly: API errors exit 1, usage errors 2, no server or no sign-in 3; --json prints the error', async () => {
    const missing = await signpost(['changelog', 'show', 'chg_missing']);
    assert.equal(missing.status, 1);
    assert.match(missing.stderr, /^signpost: Not found \(HTTP 404\)/);
    const asJson = await signpost(['releases', 'create', '1.0.0', '--json']);
    assert.equal(asJson.status, 1);
    assert.deepEqual(JSON.parse(asJson.stdout), { status: 409, error: 'Release 1.0.0 already exists' });

    const usage = await signpost(['changelog', 'create']);
    assert.equal(usage.status, 2);
    assert.match(usage.stderr, /--summary/);
    assert.equal((await signpost(['site', 'flags', 'set', 'x', 'maybe'])).status, 2);
    assert.equal((await signpost(['changelog', 'edit', 'chg_1'])).status, 2);

    const unreachable = await signpost(['releases', 'list', '--url', 'http://127.0.0.1:9', '--project', 'p'], {
      env: { SIGNPOST_TOKEN: token },
    });
    assert.equal(unreachable.status, 3);
    assert.match(unreachable.stderr, /Cannot reach the Signpost server at http:\/\/127\.0\.0\.1:9/);
    const fresh = await signpost(['releases', 'list', '--url', server.origin, '--project', projectId], {
      configDir: join(home, 'nobody'),
    });
    assert.equal(fresh.status, 3);

    const noProject = await signpost(['releases', 'list'], {
      configDir: join(home, 'nobody'),
      env: { SIGNPOST_TOKEN: token, SIGNPOST_URL: server.origin },
    });
    assert.equal(noProject.status, 2);
    assert.match(noProject.stderr, /No project given/);
  });

  it("keeps another team's account out of the project", async () => {
    const env = { SIGNPOST_TOKEN: outsiderToken, SIGNPOST_URL: server.origin };
    const configDir = join(home, 'outsider');
    for (const args of [
      ['releases', 'list'],
      ['site', 'debug', 'off'],
      ['translations', 'keys'],
      ['keys', 'list'],
    ]) {
      const run = await signpost([...args, '--project', projectId], { env, configDir });
      assert.equal(run.status, 1, args.join(' '));
      assert.match(run.stderr, /Not found/);
    }
  });

  it('runs migrations and starts the server next to it', async () => {
    const data = join(home, 'server-data');
    const migrated = await ok(['server', 'migrate', '--data-dir', data]);
    assert.match(migrated.stdout, /Applied \d+ migration/);
    assert.match((await ok(['server', 'migrate', '--data-dir', data])).stdout, /up to date/);

    const env: Record<string, string> = {};
    for (const [name, value] of Object.entries(process.env))
      if (!name.startsWith('SIGNPOST_') && value !== undefined) env[name] = value;
    const child = spawn(
      process.execPath,
      [cliEntry, 'server', 'start', '--port', '0', '--host', '127.0.0.1', '--data-dir', data],
      {
        env: { ...env, LOG_LEVEL: 'info', DEMO_ENABLED: 'false' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const origin = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 30_000);
      child.stdout.on('data', () => {
        const match = /"address":"(http:\/\/[^"]+)"/.exec(output);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]!);
        }
      });
      child.on('exit', (code) => reject(new Error(`server exited with ${code}:\n${output}`)));
    });
    assert.equal((await fetch(`${origin}/healthz`)).status, 200);
    const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    assert.equal(await exit, 0);
  });
});
