#!/usr/bin/env -S node --max-semi-space-size=2
// The server as it runs in production: the built JavaScript (npm run build), not the TypeScript
// source, and a young generation capped at 2 MB per semi-space. Both are about memory: type
// stripping holds ~18 MB, and V8 otherwise keeps the 16 MB semi-spaces that start-up grew to
// for the life of the process (~25 MB). The bench measures what the cap costs in throughput
// (packages/bench/README.md).
import { existsSync } from 'node:fs';

const main = new URL('../dist/main.js', import.meta.url);
if (!existsSync(main)) {
  process.stderr.write('The server is not built: run `npm run build` in packages/server (or use `npm start`).\n');
  process.exit(1);
}
await import(main.href);
