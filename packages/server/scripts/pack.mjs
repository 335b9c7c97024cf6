// `npm pack` / `npm publish` of @signpost/server (prepack, then postpack). The published package
// is the built server (dist/, started by bin/signpost-server.js) with the dashboard's build copied
// into dist/dashboard-app/ (src/dashboard/plugin.ts looks there first). Its exports in the
// monorepo point at TypeScript sources and test helpers that are not published (Node does not
// strip types under node_modules), so prepack writes the published manifest (only
// ./package.json exported, no scripts) and postpack puts the monorepo's one back.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const manifest = `${root}package.json`;
const saved = `${root}.package.monorepo.json`;

function run(command, args, cwd) {
  const result = spawnSync(command, args, { cwd, stdio: 'inherit', shell: process.platform === 'win32' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

if (process.argv[2] === 'postpack') {
  if (existsSync(saved)) renameSync(saved, manifest);
  // The copy served only the tarball; the monorepo's built server reads packages/dashboard/dist.
  rmSync(`${root}dist/dashboard-app`, { recursive: true, force: true });
} else {
  run('node', ['scripts/build.mjs'], root);
  const dashboard = fileURLToPath(new URL('../../dashboard/', import.meta.url));
  run('npm', ['run', 'build', '--silent'], dashboard);
  rmSync(`${root}dist/dashboard-app`, { recursive: true, force: true });
  cpSync(`${dashboard}dist`, `${root}dist/dashboard-app`, { recursive: true });
  if (!existsSync(saved)) writeFileSync(saved, readFileSync(manifest));
  const published = JSON.parse(readFileSync(saved, 'utf8'));
  published.exports = { './package.json': './package.json' };
  delete published.devDependencies;
  delete published.scripts; // they run sources and tests that are not published
  writeFileSync(manifest, `${JSON.stringify(published, null, 2)}\n`);
}
