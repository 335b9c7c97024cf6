/**
 * A Vite plugin that writes a brotli (`.br`) and a gzip (`.gz`) copy beside every text asset of
 * the build, at the highest levels: done once at build time, so the server only picks the file
 * the browser accepts (packages/server/src/dashboard/plugin.ts) and never compresses per request.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { extname, join, resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

const COMPRESSIBLE = new Set(['.js', '.mjs', '.css', '.html', '.svg', '.json', '.txt']);
/** Below this, the headers cost more than compression saves. */
const MIN_BYTES = 1024;

async function* filesUnder(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(path);
    else yield path;
  }
}

export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'signpost-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      for await (const path of filesUnder(outDir)) {
        if (!COMPRESSIBLE.has(extname(path))) continue;
        const body = await readFile(path);
        if (body.length < MIN_BYTES) continue;
        const brotli = brotliCompressSync(body, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
          },
        });
        await writeFile(`${path}.br`, brotli);
        await writeFile(`${path}.gz`, gzipSync(body, { level: 9 }));
      }
    },
  };
}
