import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { build } from 'esbuild';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

test('every entry point loads in Node.js', async () => {
  await import('@signpost/i18n');
  await import('@signpost/i18n/i18next');
  await import('@signpost/i18n/react');
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
