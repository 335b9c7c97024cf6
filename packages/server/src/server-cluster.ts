/**
 * `WORKERS=N`: N server processes behind one port, on one machine (node:cluster). The primary
 * migrates and seeds once, then forks the workers, which share the listening socket (the
 * primary hands connections out round robin) and the database: on SQLite one writer at a time
 * through WAL with readers in every process, on PostgreSQL each with its own pool. Everything a
 * process must agree on with the others is already in the database (rate limits, dedup, outbox
 * leases, memo invalidation through SQLite's data_version or PostgreSQL's NOTIFY), as it is for
 * several replicas. A worker that dies is replaced; SIGTERM stops them all, each finishing its
 * requests in flight.
 *
 * Each worker binds the port itself with SO_REUSEPORT (main.ts), rather than through the
 * primary's round robin: there a connection handed to a worker at the moment it died hung until
 * the client gave up; here the kernel resets it, and no request costs the primary anything.
 */
import cluster, { type Worker } from 'node:cluster';
import { type AddressInfo, createServer } from 'node:net';
import type { Config } from './config.ts';
import { migrate } from './db/migrate.ts';
import { openDatabase } from './db/open.ts';
import { type SeedResult, seedOnFirstStart } from './seed/first-start.ts';

/** Pause before replacing a worker that died, so one that fails at start cannot spin. */
const RESTART_DELAY_MS = 1000;

/** A port nothing listens on now, from the kernel (bind to 0, read it, let it go). */
function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, host, () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

const LISTENING = 'listening';

/** Called by a worker once it listens: the primary announces the server on the first. */
export function workerListening(): void {
  process.send?.({ signpost: LISTENING });
}

/** Whether this process is one of a cluster's workers (which neither migrate nor seed). */
export const isClusterWorker = cluster.isWorker;

function log(level: number, msg: string, fields: Record<string, unknown> = {}): void {
  process.stdout.write(`${JSON.stringify({ level, time: Date.now(), pid: process.pid, ...fields, msg })}\n`);
}

/**
 * Runs the primary: prepares the database, forks `config.workers` workers, and calls `ready`
 * with what the first start seeded once the first worker listens.
 */
export async function runPrimary(
  config: Config,
  ready: (seeded: SeedResult, dialect: 'sqlite' | 'postgres', port: number) => void,
): Promise<void> {
  const db = openDatabase(config);
  await migrate(db);
  const seeded = await seedOnFirstStart(db, config);
  const dialect = db.dialect;
  await db.close();

  // Every worker binds the same port: PORT=0 is resolved to one free port first.
  const port = config.port === 0 ? await freePort(config.host) : config.port;
  let stopping = false;
  const workers = new Set<Worker>();
  const fork = () => {
    const worker = cluster.fork({ PORT: String(port) });
    workers.add(worker);
  };
  cluster.on('exit', (worker, code, signal) => {
    workers.delete(worker);
    if (stopping) {
      if (workers.size === 0) process.exit(0);
      return;
    }
    log(50, 'worker exited; starting another', { worker: worker.process.pid, code, signal });
    setTimeout(fork, RESTART_DELAY_MS).unref();
  });
  // Workers that bind with SO_REUSEPORT listen outside the cluster's shared handles, so the
  // cluster's own 'listening' event never comes: each worker says so itself (workerListening).
  let announced = false;
  cluster.on('message', (_worker, message: unknown) => {
    if (announced || (message as { signpost?: unknown } | null)?.signpost !== LISTENING) return;
    announced = true;
    ready(seeded, dialect, port);
  });
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log(30, 'shutting down the workers', { signal, workers: workers.size });
    if (workers.size === 0) process.exit(0);
    for (const worker of workers) worker.process.kill(signal);
    // Each worker has its own grace period; this bounds a worker that ignores the signal.
    setTimeout(() => process.exit(1), (config.shutdownGraceSeconds + 5) * 1000).unref();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  log(30, 'starting workers', { workers: config.workers, database: dialect });
  for (let i = 0; i < config.workers; i++) fork();
}
