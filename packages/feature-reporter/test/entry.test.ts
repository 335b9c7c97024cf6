import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { build } from 'esbuild';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

test('every entry point loads in Node.js without a DOM, and the widget registers nothing there', async () => {
  const widget = await import('@signpost/feature-reporter/widget');
  assert.equal(widget.defineFeedbackWidget(), undefined);
  await import('@signpost/feature-reporter');
  await import('@signpost/feature-reporter/react');
});

test('the main entry and the widget bundle for the browser with no Node.js built-ins', async () => {
  for (const entry of ['index', 'widget/index']) {
    const result = await build({
      entryPoints: [new URL(`../dist/${entry}.js`, import.meta.url).pathname],
      bundle: true,
      platform: 'browser',
      write: false,
      logLevel: 'silent',
      external: Object.keys(pkg.peerDependencies),
    });
    assert.equal(result.errors.length, 0);
    assert.doesNotMatch(result.outputFiles[0]!.text, /from ["']node:/);
  }
});

test('exports are named, and every subpath has types', () => {
  for (const [subpath, target] of Object.entries<{ types?: string }>(pkg.exports)) {
    if (subpath === './package.json') continue;
    assert.ok(target.types?.endsWith('.d.ts'), subpath);
  }
  for (const file of ['index', 'react', 'widget/index']) {
    assert.doesNotMatch(
      readFileSync(new URL(`../src/${file}.ts`, import.meta.url), 'utf8'),
      /export \*|export default/,
    );
  }
});
