/**
 * esbuild for the SDK tests: bundles of the packages' built `dist/` for browser pages (so pages run
 * exactly what gets published), and the examples compiled for Node.js and imported, as a framework
 * (Next.js server components, route handlers) would run them.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { scriptPage, type StaticServer } from './browser.ts';

export interface BundleOptions {
  loader?: 'js' | 'ts' | 'tsx';
  platform?: 'browser' | 'node';
  /** Text replacements applied to the example files the bundle pulls in (`examples/…`). */
  replace?: Record<string, string>;
  external?: string[];
}

/** Bundles `code` (an ES module that may import the packages and the examples). */
export async function bundle(code: string, resolveDir: string, options: BundleOptions = {}): Promise<string> {
  const replace = Object.entries(options.replace ?? {});
  const out = await build({
    stdin: { contents: code, resolveDir, loader: options.loader ?? 'tsx', sourcefile: 'entry.tsx' },
    bundle: true,
    format: 'esm',
    platform: options.platform ?? 'browser',
    target: 'es2022',
    jsx: 'automatic',
    write: false,
    logLevel: 'error',
    external: options.external ?? [],
    ...(options.platform === 'node' ? {} : { define: { 'process.env.NODE_ENV': '"production"' } }),
    plugins: [
      {
        name: 'rewrite-examples',
        setup(b) {
          b.onLoad({ filter: /[\\/]examples[\\/].*\.(tsx?|jsx?|mjs)$/ }, async (args) => {
            let text = await readFile(args.path, 'utf8');
            for (const [from, to] of replace) text = text.split(from).join(to);
            return { contents: text, loader: args.path.endsWith('x') ? 'tsx' : 'ts', resolveDir: dirname(args.path) };
          });
        },
      },
    ],
  });
  return out.outputFiles[0]!.text;
}

/**
 * Bundles `code` for Node.js with React and the Signpost packages left as imports, writes it to a
 * file inside `packageDir` (so those imports resolve as for a user), imports it and removes the
 * file again. For the Next.js examples' server components.
 */
export async function importServerBundle(code: string, packageDir: string): Promise<Record<string, any>> {
  const file = join(packageDir, `.next-example-${process.pid}.mjs`);
  writeFileSync(
    file,
    await bundle(code, packageDir, { platform: 'node', external: ['react', 'react-dom', '@signpost/*'] }),
  );
  try {
    return await import(pathToFileURL(file).href);
  } finally {
    rmSync(file, { force: true });
  }
}

let loaded = 0;

/**
 * Compiles `examples/<example>` of `packageDir` for Node.js with every dependency left as an
 * import, into `packageDir/.tmp/`, and imports it.
 */
export async function loadExample(packageDir: string, example: string): Promise<Record<string, unknown>> {
  const tmp = join(packageDir, '.tmp');
  mkdirSync(tmp, { recursive: true });
  const outfile = join(tmp, `${example.replace(/\W+/g, '-')}-${process.pid}-${++loaded}.mjs`);
  await build({
    entryPoints: [join(packageDir, 'examples', example)],
    outfile,
    bundle: true,
    packages: 'external',
    format: 'esm',
    platform: 'node',
    jsx: 'automatic',
    logLevel: 'error',
  });
  return import(pathToFileURL(outfile).href);
}

/**
 * Serves the `App` of `packageDir/examples/react.tsx`, rendered into `#root` and bundled with
 * `replace` applied to the example files, as `/react.html` of `site`; returns the page's URL.
 */
export async function serveReactExample(
  site: StaticServer,
  packageDir: string,
  replace: Record<string, string>,
): Promise<string> {
  site.serve(
    '/react.js',
    await bundle(
      `import { createElement } from 'react';
       import { createRoot } from 'react-dom/client';
       import { App } from './examples/react.tsx';
       createRoot(document.getElementById('root')).render(createElement(App));`,
      packageDir,
      { replace },
    ),
  );
  return site.serve('/react.html', scriptPage('/react.js'));
}
