import { type Dirent, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { EXAMPLE_PLATFORMS, type ExampleFile, type ExamplePlatform } from '../../src/content.ts';

const MAX_EXAMPLE_BYTES = 64 * 1024;
const SKIP_DIRS = new Set(['node_modules', 'dist', '.next', 'build', 'coverage']);
const LANGUAGES: Record<string, string> = {
  '.ts': 'ts',
  '.mts': 'ts',
  '.cts': 'ts',
  '.tsx': 'tsx',
  '.js': 'js',
  '.mjs': 'js',
  '.cjs': 'js',
  '.jsx': 'jsx',
  '.html': 'html',
  '.htm': 'html',
  '.json': 'json',
  '.css': 'css',
  '.md': 'md',
  '.sh': 'sh',
};

/**
 * Reads the example files of a package. The platform comes from the first path segment under
 * `examples/` (`react.tsx`, `nextjs/app/page.tsx`); test files, build output and large files are skipped.
 */
export function gatherExamples(packageDir: string): ExampleFile[] {
  const root = join(packageDir, 'examples');
  const files: ExampleFile[] = [];
  for (const file of walk(root)) {
    const rel = relative(root, file).split(sep).join('/');
    const base = rel.split('/').pop()!;
    if (/\.(test|spec)\./.test(base) || base.startsWith('.') || !(extname(base) in LANGUAGES)) continue;
    if (/^(tsconfig.*|jsconfig|package-lock|package)\.json$/.test(base) || /\.d\.ts$/.test(base)) continue;
    if (statSync(file).size > MAX_EXAMPLE_BYTES) continue;
    const head = rel.split('/')[0]!.split('.')[0]!;
    const platform = (EXAMPLE_PLATFORMS as readonly string[]).includes(head) ? (head as ExamplePlatform) : 'other';
    files.push({
      platform,
      path: `examples/${rel}`,
      language: LANGUAGES[extname(base)]!,
      code: readFileSync(file, 'utf8').replace(/\r\n?/g, '\n').trimEnd(),
    });
  }
  const order = (f: ExampleFile) => {
    const i = (EXAMPLE_PLATFORMS as readonly string[]).indexOf(f.platform);
    return i === -1 ? EXAMPLE_PLATFORMS.length : i;
  };
  return files.sort((a, b) => order(a) - order(b) || a.path.localeCompare(b.path));
}

function* walk(dir: string): Generator<string> {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name) && !entry.name.startsWith('.')) yield* walk(full);
    } else if (entry.isFile()) {
      yield full;
    }
  }
}
