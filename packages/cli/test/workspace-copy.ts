/**
 * A throwaway copy of the monorepo holding only the given packages' sources (no dist), sharing the
 * repository's installed dependencies, so a test can build and pack a package from scratch without
 * touching the dist folder other tests run.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { packageDir } from './support.ts';

const repoRoot = join(packageDir, '..', '..');
const repoModules = join(repoRoot, 'node_modules');

export interface WorkspaceCopy {
  root: string;
  packageDir(name: string): string;
  /** Runs a command in the copy (or a folder of it) without the outer npm run's npm_* settings. */
  run(command: string, args: string[], cwd?: string): SpawnSyncReturns<string>;
  remove(): void;
}

/** `packages` are folder names under packages/, e.g. "cli"; each is linked into node_modules as npm would. */
export function workspaceCopy(packages: string[]): WorkspaceCopy {
  const root = mkdtempSync(join(tmpdir(), 'signpost-workspace-'));
  writeFileSync(
    join(root, 'package.json'),
    JSON.stringify({ name: 'workspace-copy', private: true, type: 'module', workspaces: ['packages/*'] }),
  );
  cpSync(join(repoRoot, 'tsconfig.base.json'), join(root, 'tsconfig.base.json'));
  // Every installed dependency, but not the workspace links or their bins: those point at this copy.
  const modules = join(root, 'node_modules');
  mkdirSync(join(modules, '.bin'), { recursive: true });
  mkdirSync(join(modules, '@signpost'));
  for (const entry of readdirSync(repoModules)) {
    if (entry !== '.bin' && entry !== '@signpost' && !entry.startsWith('.'))
      symlinkSync(join(repoModules, entry), join(modules, entry));
  }
  symlinkSync(join(repoModules, 'typescript', 'bin', 'tsc'), join(modules, '.bin', 'tsc'));
  for (const name of packages) {
    const source = join(repoRoot, 'packages', name);
    const target = join(root, 'packages', name);
    cpSync(source, target, {
      recursive: true,
      filter: (path) => !['dist', 'node_modules', 'test', 'generated'].includes(basename(path)),
    });
    symlinkSync(join('..', '..', 'packages', name), join(modules, '@signpost', name));
    // A package's own nested dependencies (the CLI's openapi-typescript with its TypeScript 5).
    if (existsSync(join(source, 'node_modules')))
      symlinkSync(join(source, 'node_modules'), join(target, 'node_modules'));
    const { bin = {} } = JSON.parse(readFileSync(join(source, 'package.json'), 'utf8')) as {
      bin?: Record<string, string>;
    };
    for (const [command, file] of Object.entries(bin))
      symlinkSync(join('..', '@signpost', name, file), join(modules, '.bin', command));
  }
  // The API types are generated at build time from the server's OpenAPI snapshot.
  const snapshot = join('packages', 'server', 'test', 'fixtures', 'openapi', 'management.json');
  mkdirSync(join(root, snapshot, '..'), { recursive: true });
  cpSync(join(repoRoot, snapshot), join(root, snapshot));
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k)) env[k] = v;
  return {
    root,
    packageDir: (name) => join(root, 'packages', name),
    run: (command, args, cwd = root) => spawnSync(command, args, { cwd, env, encoding: 'utf8', timeout: 300_000 }),
    // Retried: a command the timeout killed may leave a child writing into the folder for a moment.
    remove: () => rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 500 }),
  };
}
