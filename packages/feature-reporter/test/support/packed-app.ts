/**
 * A new app with Signpost packages installed as a user gets them: each package packed with
 * `npm pack` (its dist is built by this package's test script, so packing skips the scripts) and
 * installed from the tarballs with npm, preferring its cache (the third-party dependencies, such as
 * the modern-screenshot peer, come from the registry when the cache lacks their metadata: a
 * lockfile install does not fetch it, so `--offline` failed on a fresh machine). Vite then bundles
 * the app from its own node_modules, not from the workspace.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';

const packagesDir = new URL('../../../', import.meta.url).pathname;

/** The environment minus the outer npm run's npm_* settings, so the nested npm runs are clean. */
function run(command: string, args: string[], cwd: string): string {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k)) env[k] = v;
  const result = spawnSync(command, args, { cwd, env, encoding: 'utf8', timeout: 120_000 });
  assert.equal(result.status, 0, `${command} ${args.join(' ')}:\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

/**
 * A fresh app directory (removed after the test file) with `packages` (folder names under
 * packages/, e.g. `sdk-core`) packed and installed. Returns the app's directory.
 */
export function packedApp(packages: string[]): string {
  const work = mkdtempSync(join(tmpdir(), 'signpost-packed-app-'));
  after(() => rmSync(work, { recursive: true, force: true }));
  const tarballs = packages.map((name) => {
    const out = run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], join(packagesDir, name));
    return join(work, (JSON.parse(out.slice(out.indexOf('['))) as { filename: string }[])[0]!.filename);
  });
  const app = join(work, 'app');
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
  run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', ...tarballs], app);
  return app;
}
