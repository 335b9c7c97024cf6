/**
 * Runs an example or a README snippet as its own Node.js process, as a user would. Snippets that
 * use the local default (`http://localhost:3000`) are pointed at the test server by a preload that
 * rewrites that origin in `fetch` calls; nothing else is changed.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export async function runNode(
  file: string,
  options: { env?: Record<string, string>; origin?: string; cwd: string },
): Promise<string> {
  const args: string[] = [];
  if (options.origin) {
    const preload = `const f = globalThis.fetch; globalThis.fetch = (url, init) => f(String(url).replace('http://localhost:3000', ${JSON.stringify(options.origin)}), init);`;
    args.push('--import', `data:text/javascript,${encodeURIComponent(preload)}`);
  }
  const { stdout } = await run(process.execPath, [...args, file], {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    timeout: 30_000,
  });
  return stdout;
}

/** The first fenced code block of a README: its quick start. */
export function quickStart(readmePath: string): string {
  const match = /```(?:js|ts|javascript)\n([\s\S]*?)```/.exec(readFileSync(readmePath, 'utf8'));
  if (!match) throw new Error(`no code block in ${readmePath}`);
  return match[1]!;
}

/** Runs `code` as an ES module file inside `dir` (so package imports resolve as for a user). */
export async function runSnippet(
  code: string,
  dir: string,
  options: { origin?: string; env?: Record<string, string> } = {},
): Promise<string> {
  const tmp = mkdtempSync(join(dir, '.snippet-'));
  const file = join(tmp, 'snippet.mjs');
  writeFileSync(file, code);
  try {
    return await runNode(file, { ...options, cwd: dir });
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
