// `npm run build`: the server as JavaScript in dist/, what `@signpost/server` runs. Node 24 runs
// src/ as it is (type stripping), but stripping costs ~18 MB of resident memory for the
// compiler it loads; the built server starts without it. tsc writes the modules with their
// imports rewritten to .js; the files read at run time (SQL migrations, the board's assets) are
// copied beside them, so every `new URL(…, import.meta.url)` resolves as it does in src/.
import { spawnSync } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
rmSync(`${root}dist`, { recursive: true, force: true });
const tsc = spawnSync('tsc', ['-p', 'tsconfig.build.json'], {
  cwd: root,
  stdio: 'inherit',
  shell: process.platform === 'win32',
});
if (tsc.status !== 0) process.exit(tsc.status ?? 1);
cpSync(`${root}src/migrations`, `${root}dist/migrations`, { recursive: true, filter: (path) => !path.endsWith('.ts') });
cpSync(`${root}src/routing/board/assets`, `${root}dist/routing/board/assets`, {
  recursive: true,
  filter: (path) => !path.endsWith('tsconfig.json'),
});
