/** The benchmark's server processes: started pinned to core 0 where possible, stopped cleanly. */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import os from 'node:os';

export const hasTaskset = !spawnSync('taskset', ['-c', '0', 'true']).error && os.cpus().length >= 2;
/** The core of the server (and PostgreSQL's backends, where a bench pins them); wrk gets the other. */
export const SERVER_CORE = 0;
export const WRK_CORE = 1;

/**
 * `BENCH_SERVER_NODE_ARGS`: Node flags for the server process besides its bin's, e.g.
 * `--cpu-prof --cpu-prof-dir=/tmp/prof` or `--heapsnapshot-signal=SIGUSR2` (every bench that starts it).
 */
export const SERVER_NODE_ARGS = (process.env['BENCH_SERVER_NODE_ARGS'] ?? '').split(/\s+/).filter(Boolean);

/**
 * The Node flags a script's `#!/usr/bin/env -S node …` line gives it (the server's bin sets its
 * memory flags there): a script started as `node <script>` must get them from here.
 */
export function shebangFlags(script: string): string[] {
  const first = readFileSync(script, 'utf8').split('\n', 1)[0] ?? '';
  const match = /^#!\S*env -S node((?: --?\S+)*)\s*$/.exec(first);
  return match?.[1]?.trim().split(/\s+/).filter(Boolean) ?? [];
}

/** Started processes still running: each is in a session of its own, so none ends with the bench by itself. */
const running = new Set<ChildProcess>();
const endRunning = () => {
  for (const child of running) child.kill('SIGKILL');
};
process.once('exit', endRunning);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
  process.once(signal, () => {
    endRunning();
    // A bench with its own handler (run.ts drops its databases) ends itself; else the signal's default.
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  });

/**
 * Starts a Node process pinned to core 0 (when possible) and waits for `ready` in its output.
 *
 * The process gets a session of its own (`detached`), as a deployment has (a systemd unit, a
 * container, a login): with Linux's autogroup the scheduler shares a core fairly between sessions
 * first, and a thread's nice value ranks it only within its own. Started in the bench's session, a
 * SQLite server's read workers (nice 10 on one CPU, `DEFAULT_WORKER_NICE`) yielded to every process
 * of `npm test`'s other lanes as well: a CI run measured no MCP or release-page request in a
 * second (2026-11-30; with 12 busy loops beside it, 0 MCP calls a second in the bench's session
 * against 378 in its own).
 */
export async function startProcess(
  script: string,
  extraEnv: Record<string, string>,
  ready: RegExp,
  nodeArgs: string[] = [],
): Promise<{ child: ChildProcess; port: number; output: () => string }> {
  const args = [...shebangFlags(script), ...nodeArgs, script];
  const [command, argv] = hasTaskset
    ? ['taskset', ['-c', String(SERVER_CORE), process.execPath, ...args]]
    : [process.execPath, args];
  const childEnv: Record<string, string | undefined> = { ...process.env, ...extraEnv };
  const child = spawn(command, argv, { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  running.add(child);
  child.once('exit', () => running.delete(child));
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script} did not start:\n${output}`)), 60_000);
    const check = () => {
      const match = ready.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    };
    child.stdout!.on('data', check);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited with ${code ?? signal} before it was ready:\n${output}`));
    });
  });
  return { child, port, output: () => output };
}

export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

/** The Signpost server `main` on `databaseUrl` (SQLite or PostgreSQL), silent, on a free port. */
export function startServer(main: string, dataDir: string, databaseUrl: string, nodeArgs: string[] = []) {
  return startProcess(
    main,
    {
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      NODE_ENV: 'production',
    },
    /running on (?:SQLite|PostgreSQL) at http:\/\/localhost:(\d+)/,
    nodeArgs,
  );
}
