/**
 * A small TypeScript app (test/fixtures/source-maps/src) bundled and minified by esbuild with an
 * external source map, as a real build writes it: `app.js` ending in its sourceMappingURL and
 * `app.js.map` with sourcesContent. With `debugId`, the build is what `sentry-cli sourcemaps
 * inject` leaves: a snippet registering the ID in `_sentryDebugIds` (an esbuild banner, so the
 * map accounts for it), a `//# debugId=` comment and `debug_id`/`debugId` in the map.
 */
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

export const SOURCE_MAP_APP_DIR = fileURLToPath(new URL('../fixtures/source-maps/src/', import.meta.url));

/** Where the fixture's imports (@sentry/browser) resolve from once copied to a temporary folder. */
const NODE_MODULES = fileURLToPath(new URL('../../../../node_modules/', import.meta.url));

export interface MinifiedApp {
  /** The build output folder (`dist/`: app.js, app.js.map). */
  dir: string;
  js: string;
  map: string;
}

function debugIdSnippet(debugId: string): string {
  return `!function(){try{var e="undefined"!=typeof window?window:"undefined"!=typeof global?global:"undefined"!=typeof globalThis?globalThis:"undefined"!=typeof self?self:{},n=(new e.Error).stack;n&&(e._sentryDebugIds=e._sentryDebugIds||{},e._sentryDebugIds[n]="${debugId}",e._sentryDebugIdIdentifier="sentry-dbid-${debugId}")}catch(e){}}();`;
}

export async function buildMinifiedApp(options: {
  /** `node-main.ts` (an IIFE exposing `shop.pay`), or `browser-main.ts`/`browser-feedback-main.ts` (with @sentry/browser). */
  entry: 'node-main.ts' | 'browser-main.ts' | 'browser-feedback-main.ts';
  outDir: string;
  debugId?: string;
}): Promise<MinifiedApp> {
  // The app's sources beside its build output, as in a project: the map names `../src/cart.ts`.
  cpSync(SOURCE_MAP_APP_DIR, join(options.outDir, 'src'), { recursive: true });
  const dist = join(options.outDir, 'dist');
  mkdirSync(dist, { recursive: true });
  await build({
    entryPoints: [join(options.outDir, 'src', options.entry)],
    outfile: join(dist, 'app.js'),
    nodePaths: [NODE_MODULES],
    bundle: true,
    minify: true,
    sourcemap: 'linked',
    sourcesContent: true,
    format: 'iife',
    globalName: 'shop',
    platform: 'browser',
    target: 'es2022',
    logLevel: 'error',
    ...(options.debugId
      ? { banner: { js: debugIdSnippet(options.debugId) }, footer: { js: `//# debugId=${options.debugId}` } }
      : {}),
  });
  const mapPath = join(dist, 'app.js.map');
  if (options.debugId) {
    const map = JSON.parse(readFileSync(mapPath, 'utf8'));
    writeFileSync(mapPath, JSON.stringify({ ...map, debug_id: options.debugId, debugId: options.debugId }));
  }
  return { dir: dist, js: readFileSync(join(dist, 'app.js'), 'utf8'), map: readFileSync(mapPath, 'utf8') };
}

/** V8's `error.stack` as Sentry frames (oldest call first), as the SDKs' stack parser gives them. */
export function framesOfStack(stack: string): { filename: string; function?: string; lineno: number; colno: number }[] {
  const frames = [];
  for (const line of stack.split('\n').slice(1)) {
    const match = /^\s*at (?:(.+?) \()?(.+?):(\d+):(\d+)\)?$/.exec(line);
    if (!match) continue;
    frames.push({
      filename: match[2]!,
      ...(match[1] ? { function: match[1] } : {}),
      lineno: Number(match[3]),
      colno: Number(match[4]),
    });
  }
  return frames.reverse();
}
