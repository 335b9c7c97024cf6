/**
 * The README quick start of a package: its first ```js block (one line: import and init/use), with
 * the placeholder key and the default base URL replaced, written as a module inside the package
 * (so its imports resolve) and returned as a path to run.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function quickStartModule(
  packageDir: string,
  apiKey: string,
  baseUrl: string,
  append = '',
): { code: string; file: string } {
  const readme = readFileSync(join(packageDir, 'README.md'), 'utf8');
  const match = /```js\n([\s\S]*?)```/.exec(readme);
  if (!match) throw new Error('no ```js quick start in README.md');
  const code = match[1]!.trim();
  const dir = join(packageDir, '.tmp');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `quick-start-${process.pid}.mjs`);
  writeFileSync(
    file,
    `${code.replaceAll('svc_live_…', apiKey).replaceAll('http://localhost:3000/api/public/v1', baseUrl)}\n${append}\n`,
  );
  return { code, file };
}
