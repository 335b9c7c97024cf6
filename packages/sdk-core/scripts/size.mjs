// Measures each entry point of the package in the current directory: bundled with esbuild
// (dependencies such as @signpost/sdk-core included, peer dependencies left out), minified, then
// gzipped. Run after `npm run build`. Usage: node <this file> [--json]
import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const dir = process.cwd();
const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
const external = [
  ...Object.keys(pkg.peerDependencies ?? {}),
  ...builtinModules,
  ...builtinModules.map((m) => `node:${m}`),
];
const results = [];
for (const [subpath, target] of Object.entries(pkg.exports ?? { '.': pkg.main })) {
  const file = typeof target === 'string' ? target : target.default;
  if (!file?.endsWith('.js')) continue;
  const nodeOnly = /\/(node|pino)$/.test(subpath);
  const out = await build({
    entryPoints: [resolve(dir, file)],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: nodeOnly ? 'node' : 'browser',
    target: 'es2020',
    external,
    write: false,
    logLevel: 'error',
  });
  const code = out.outputFiles[0].contents;
  results.push({
    entry: subpath === '.' ? pkg.name : `${pkg.name}/${subpath.slice(2)}`,
    minified: code.length,
    gzipped: gzipSync(code, { level: 9 }).length,
  });
}
if (process.argv.includes('--json')) {
  console.log(JSON.stringify(results, null, 2));
} else {
  for (const r of results) {
    console.log(
      `${r.entry.padEnd(34)} ${(r.minified / 1024).toFixed(1).padStart(6)} KB min  ${(r.gzipped / 1024).toFixed(1).padStart(5)} KB min+gzip`,
    );
  }
}
