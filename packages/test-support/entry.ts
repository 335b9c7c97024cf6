/**
 * The entry-point checks every SDK package makes of its built `dist/`: each subpath of `exports`
 * has types, bundles for the browser without Node.js built-ins (peer dependencies left out), and
 * its source exports by name only.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

export async function checkBrowserEntryPoints(packageDir: string): Promise<void> {
  const pkg = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
  for (const [subpath, target] of Object.entries<{ types?: string; default?: string }>(pkg.exports)) {
    if (subpath === './package.json') continue;
    assert.ok(target.types?.endsWith('.d.ts'), subpath);
    const result = await build({
      entryPoints: [join(packageDir, target.default!)],
      bundle: true,
      platform: 'browser',
      write: false,
      logLevel: 'silent',
      external: Object.keys(pkg.peerDependencies),
    });
    assert.doesNotMatch(result.outputFiles[0]!.text, /from ["']node:/);
    const source = readFileSync(
      join(packageDir, 'src', target.default!.slice('./dist/'.length).replace(/\.js$/, '.ts')),
      'utf8',
    );
    assert.doesNotMatch(source, /export \*|export default/);
  }
}
