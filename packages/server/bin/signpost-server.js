#!/usr/bin/env -S node --max-semi-space-size=4
// The server as it runs in production: the built JavaScript (npm run build), not the TypeScript
// source, and a young generation capped at 4 MB per semi-space. Both are about memory: type
// stripping holds ~18 MB, and V8 otherwise keeps the 16 MB semi-spaces that start-up grew to
// for the life of the process (~20 MB more). Measured with `npm run compare` (packages/bench
// README): 4 MB costs no throughput we could see; 2 MB saved 3 MB more and cost 12 % on reads.
import { existsSync } from 'node:fs';

const main = new URL('../dist/main.js', import.meta.url);
if (!existsSync(main)) {
  process.stderr.write('The server is not built: run `npm run build` in packages/server (or use `npm start`).\n');
  process.exit(1);
}
await import(main.href);
