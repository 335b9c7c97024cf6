#!/usr/bin/env -S node --max-semi-space-size=4 --heap-growing-percent=50
// The server as it runs in production: the built JavaScript (npm run build), not the TypeScript
// source, and a young generation capped at 4 MB per semi-space. Both are about memory: type
// stripping holds ~18 MB, and V8 otherwise keeps the 16 MB semi-spaces that start-up grew to
// for the life of the process (~20 MB more). Measured with `npm run compare` (packages/bench
// README): 4 MB costs no throughput we could see; 2 MB saved 3 MB more and cost 12 % on reads.
// The old generation grows to 1.5 × what the last full collection kept (`--heap-growing-percent`),
// not V8's up to 4× on a machine with this much memory: right after the bench's load the main
// heap held 124 MB for 50 MB alive and the two read workers 100 MB more (issue 37; packages/bench
// README, "Memory"). It costs throughput: GET /features 3–7 % on a quiet machine (paired, an A/A
// control at 1.02), the log explorer's management reads (which allocate most) 6–8 %; new errors
// none. A factor of 2 (`=100`) left 262 MB after the load, over the 250.
import { existsSync } from 'node:fs';

// The allocator (issue 37). glibc's malloc keeps the memory a load grew (SQLite's page caches,
// buffers freed in the middle of its heap) until `malloc_trim`, which Node never calls: after the
// bench's load and a minute at rest the server stayed at 156 MB on glibc and came down to 124 MB
// with jemalloc, which hands unused pages back after a few seconds (packages/bench README,
// "Memory"). So where jemalloc is installed (Debian: `apt-get install libjemalloc2`; the image
// has it), the server starts again on it: `process.execve` replaces this process (same pid, no
// second Node). `SIGNPOST_ALLOCATOR=system` keeps the C library's malloc; an LD_PRELOAD of the
// operator's own is left alone, and an operator's MALLOC_CONF wins over the one set here.
const JEMALLOC = [
  `/usr/lib/${process.arch === 'arm64' ? 'aarch64' : 'x86_64'}-linux-gnu/libjemalloc.so.2`,
  '/usr/lib64/libjemalloc.so.2',
  '/usr/lib/libjemalloc.so.2',
  '/usr/local/lib/libjemalloc.so.2',
];
if (
  process.platform === 'linux' &&
  typeof process.execve === 'function' &&
  process.env.SIGNPOST_ALLOCATOR !== 'system' &&
  !process.env.LD_PRELOAD
) {
  const jemalloc = JEMALLOC.find((path) => existsSync(path));
  if (jemalloc) {
    // jemalloc returns freed pages as the program allocates; an idle server allocates nothing, so
    // its background thread does it (124 MB after a minute at rest against 149 MB without).
    process.execve(process.execPath, [process.execPath, ...process.execArgv, ...process.argv.slice(1)], {
      MALLOC_CONF: 'background_thread:true',
      ...process.env,
      LD_PRELOAD: jemalloc,
    });
  }
}

const main = new URL('../dist/main.js', import.meta.url);
if (!existsSync(main)) {
  process.stderr.write('The server is not built: run `npm run build` in packages/server (or use `npm start`).\n');
  process.exit(1);
}
await import(main.href);
