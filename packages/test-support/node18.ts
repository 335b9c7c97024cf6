/**
 * A Node.js 18 binary for the "SDK cores run on Node 18" tests, installed from npm once into
 * packages/test-support/.tmp/node18 (git-ignored) and reused. Returns null when it cannot be installed
 * (no registry access), so callers can skip.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const DIR = resolve(fileURLToPath(new URL('./.tmp/node18', import.meta.url)));
const BIN = join(DIR, 'node_modules', 'node', 'bin', 'node');

export function node18(): string | null {
  const works = () => {
    try {
      return execFileSync(BIN, ['--version'], { encoding: 'utf8' }).trim().startsWith('v18.');
    } catch {
      return false;
    }
  };
  if (existsSync(BIN) && works()) return BIN;
  try {
    execFileSync(
      'npm',
      ['install', '--prefix', DIR, '--no-save', '--no-package-lock', '--foreground-scripts', 'node@18'],
      {
        stdio: 'ignore',
        timeout: 120_000,
      },
    );
  } catch {
    return null;
  }
  return existsSync(BIN) && works() ? BIN : null;
}
