import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { build } from 'esbuild';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

test('every entry point loads in Node.js; the gate renders nothing without a DOM', async () => {
  const { createSiteManager } = await import('@signpost/site-manager');
  const { mountMaintenanceGate } = await import('@signpost/site-manager/gate');
  const site = createSiteManager({ projectId: 'x', autoStart: false });
  assert.equal(typeof mountMaintenanceGate(site), 'function');
  site.close();
  await import('@signpost/site-manager/openfeature');
  await import('@signpost/site-manager/react');
});

test('entry points bundle for the browser with no Node.js built-ins; exports are named and typed', async () => {
  for (const [subpath, target] of Object.entries<{ types?: string; default?: string }>(pkg.exports)) {
    if (subpath === './package.json') continue;
    assert.ok(target.types?.endsWith('.d.ts'), subpath);
    const result = await build({
      entryPoints: [new URL(`../${target.default}`, import.meta.url).pathname],
      bundle: true,
      platform: 'browser',
      write: false,
      logLevel: 'silent',
      external: Object.keys(pkg.peerDependencies),
    });
    assert.doesNotMatch(result.outputFiles[0]!.text, /from ["']node:/);
    const source = readFileSync(
      new URL(`../src/${target.default!.slice('./dist/'.length).replace(/\.js$/, '.ts')}`, import.meta.url),
      'utf8',
    );
    assert.doesNotMatch(source, /export \*|export default/);
  }
});
