/**
 * Finds the Signpost server next to the CLI and runs one of its entry points as a child process.
 * The server is TypeScript run directly by Node (type stripping), so it needs Node 22.18 or later
 * (or 23.6+); the CLI itself runs on Node 18.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { CliError, EXIT } from './errors.ts';

export function locateServer(env: NodeJS.ProcessEnv = process.env): string {
  const given = env['SIGNPOST_SERVER_DIR'];
  if (given) {
    const dir = resolve(given);
    if (!existsSync(join(dir, 'src', 'main.ts')))
      throw new CliError(`SIGNPOST_SERVER_DIR=${given} has no src/main.ts`, EXIT.environment);
    return dir;
  }
  try {
    // The package's main export is src/app.ts; its folder is two levels up.
    const entry = createRequire(import.meta.url).resolve('@signpost/server');
    return dirname(dirname(entry));
  } catch {
    throw new CliError(
      'The Signpost server is not installed next to the CLI. In a clone of the Signpost repository run `npm install` and then ' +
        '`npx signpost server start`; elsewhere install both packages (`npm install @signpost/cli @signpost/server`) or set ' +
        'SIGNPOST_SERVER_DIR to the server package folder.',
      EXIT.environment,
    );
  }
}

/** Node flags that let this Node run the server's TypeScript, or an error naming the version needed. */
export function nodeFlagsFor(version: string = process.versions.node): string[] {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  const stripsByDefault = major > 23 || (major === 23 && minor >= 6) || (major === 22 && minor >= 18);
  if (stripsByDefault) return [];
  if (major === 23 || (major === 22 && minor >= 6))
    return ['--experimental-strip-types', '--no-warnings=ExperimentalWarning'];
  throw new CliError(
    `The Signpost server needs Node.js 22.18 or later (this is ${version}). Run it with a newer Node, ` +
      'or point SIGNPOST_NODE at one (for example the node from `npm install node@24`).',
    EXIT.environment,
  );
}

/** Runs `<server>/<script>` with the given environment, passes signals on, and resolves to its exit code. */
export function runServerScript(script: string, env: NodeJS.ProcessEnv, args: string[] = []): Promise<number> {
  const dir = locateServer(env);
  const node = env['SIGNPOST_NODE'];
  const flags = node ? [] : nodeFlagsFor();
  const child = spawn(node ?? process.execPath, [...flags, join(dir, script), ...args], {
    env,
    stdio: 'inherit',
    cwd: process.cwd(),
  });
  const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
  const onInt = forward('SIGINT');
  const onTerm = forward('SIGTERM');
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onTerm);
  return new Promise((resolvePromise, reject) => {
    child.on('error', (error) => reject(new CliError(`Cannot start the server: ${error.message}`, EXIT.environment)));
    child.on('exit', (code, signal) => {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
      resolvePromise(code ?? (signal === 'SIGINT' || signal === 'SIGTERM' ? 0 : 1));
    });
  });
}
