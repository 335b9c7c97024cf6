/**
 * The release, site-configuration and translation commands as users run them, against a real
 * Signpost server, read back from the public API; and how the CLI fails (exit codes, --json errors).
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { useManageServer } from './manage-support.ts';

describe('signpost release, site and translation commands', { timeout: 600_000 }, () => {
  const cli = useManageServer('signpost-cli-manage-site-');
  const { signpost, ok, json, publicGet } = cli;
  let projectId: string;
  let liveKey: string;

  before(async () => {
    ({ projectId, liveKey } = await cli.signInWithProject('CLI App'));
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
    // The flag's history (issue 33): every change, newest first, by the CLI's token; kept after the delete.
    const history = await json(['flags', 'history', 'new-ui']);
    assert.deepEqual(
      history.changes.map((c: any) => [c.action, c.actor.type]),
      [
        ['deleted', 'token'],
        ['created', 'token'],
      ],
    );
    assert.match(
      (await ok(['site', 'flags', 'history', 'new-ui', '--limit', '1'])).stdout,
      /deleted[\s\S]*More: --cursor /,
    );
    await ok(['site', 'envs', 'edit', 'staging', '--no-debug']);
    const after = (await publicGet(`/site-config?projectId=${projectId}`)).body;
    assert.equal(after.maintenance.enabled, false);
    assert.deepEqual(after.featureFlags, []);
    assert.equal(after.environments[0].debugEnabled, false);
    const shown = await ok(['site', 'show']);
    assert.match(shown.stdout, /Maintenance tonight/);
  });

  it('imports and exports translation files; missing keys become keys', async () => {
    const dir = join(cli.home, 'locales');
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
    const out = join(cli.home, 'export');
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

    const report = await fetch(`${cli.server.baseUrl}/i18n-telemetry`, {
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

  it('fails clearly: API errors exit 1, usage errors 2, no server or no sign-in 3; --json prints the error', async () => {
    const missing = await signpost(['changelog', 'show', 'chg_missing']);
    assert.equal(missing.status, 1);
    assert.match(missing.stderr, /^signpost: Not found \(HTTP 404\)/);
    const asJson = await signpost(['releases', 'create', '1.0.0', '--json']);
    assert.equal(asJson.status, 1);
    assert.deepEqual(JSON.parse(asJson.stdout), {
      status: 409,
      error: 'Release 1.0.0 already exists',
      code: 'Conflict',
    });

    const usage = await signpost(['changelog', 'create']);
    assert.equal(usage.status, 2);
    assert.match(usage.stderr, /--summary/);
    assert.equal((await signpost(['site', 'flags', 'set', 'x', 'maybe'])).status, 2);
    assert.equal((await signpost(['changelog', 'edit', 'chg_1'])).status, 2);

    const unreachable = await signpost(['releases', 'list', '--url', 'http://127.0.0.1:9', '--project', 'p'], {
      env: { SIGNPOST_TOKEN: cli.token },
    });
    assert.equal(unreachable.status, 3);
    assert.match(unreachable.stderr, /Cannot reach the Signpost server at http:\/\/127\.0\.0\.1:9/);
    const fresh = await signpost(['releases', 'list', '--url', cli.server.origin, '--project', projectId], {
      configDir: join(cli.home, 'nobody'),
    });
    assert.equal(fresh.status, 3);

    const noProject = await signpost(['releases', 'list'], {
      configDir: join(cli.home, 'nobody'),
      env: { SIGNPOST_TOKEN: cli.token, SIGNPOST_URL: cli.server.origin },
    });
    assert.equal(noProject.status, 2);
    assert.match(noProject.stderr, /No project given/);
  });
});
