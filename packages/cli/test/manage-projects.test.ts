/**
 * The project and key commands as users run them, against a real Signpost server: what the CLI
 * creates works on the public API, publishable keys stay read-mostly, and another team's account
 * is kept out of the project.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { useManageServer } from './manage-support.ts';

describe('signpost project and key commands', { timeout: 600_000 }, () => {
  const cli = useManageServer('signpost-cli-manage-projects-');
  const { signpost, ok, json, publicGet } = cli;
  let projectId: string;
  let liveKey: string;

  before(async () => {
    await ok(['login', '--token', '-', '--url', cli.server.origin], { stdin: `${cli.token}\n` });
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
      fetch(`${cli.server.baseUrl}${path}`, {
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
    assert.deepEqual(await refused.json(), { error: 'Publishable keys cannot modify features', code: 'Forbidden' });
    assert.equal((await send('PATCH', `/features/${featureId}`, liveKey, { status: 'planned' })).status, 200);

    const listed = await json(['keys', 'list']);
    assert.equal(listed.keys.find((k: any) => k.name === 'widget').publishable, true);
    assert.equal(listed.keys.find((k: any) => k.name === 'web').publishable, false);
    const table = (await ok(['keys', 'list'])).stdout;
    assert.match(table, /widget\s+live\s+publishable\s/);
    assert.match(table, /web\s+live\s+secret\s/);
    await ok(['features', 'delete', featureId]); // leaves the project without features, as it found it
  });

  it("keeps another team's account out of the project", async () => {
    const env = { SIGNPOST_TOKEN: cli.outsiderToken, SIGNPOST_URL: cli.server.origin };
    const configDir = join(cli.home, 'outsider');
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
});
