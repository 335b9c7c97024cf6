/**
 * The databases a run measures the server on: a fresh SQLite file in the run's directory, or a
 * fresh PostgreSQL database (`signpost_bench_<pid>`) created on the server at BENCH_PG_URL
 * (default postgres://postgres@127.0.0.1:5432/postgres) and dropped at the end.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, fsyncSync, openSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';

export type BenchDb = 'sqlite' | 'postgres';
export type BenchDbMode = BenchDb | 'both';

const MODES: readonly BenchDbMode[] = ['sqlite', 'postgres', 'both'];

/** `--db <mode>` or `--db=<mode>` on the command line, else BENCH_DB, else sqlite. */
export function dbModeOf(argv: readonly string[], env: NodeJS.ProcessEnv): BenchDbMode {
  let value = env['BENCH_DB'];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--db') value = argv[i + 1];
    else if (arg.startsWith('--db=')) value = arg.slice('--db='.length);
  }
  const mode = (value ?? 'sqlite') as BenchDbMode;
  if (!MODES.includes(mode)) throw new Error(`--db must be one of ${MODES.join(', ')}, not ${value}`);
  return mode;
}

export const databasesOf = (mode: BenchDbMode): BenchDb[] => (mode === 'both' ? ['sqlite', 'postgres'] : [mode]);

export const DB_LABEL: Record<BenchDb, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };

export interface PreparedDatabase {
  db: BenchDb;
  /** What the server gets as DATABASE_URL. */
  databaseUrl: string;
  /** PostgreSQL's database name (its backends are found by it), if PostgreSQL. */
  name?: string;
  /** PostgreSQL's version, if PostgreSQL. */
  version?: string;
  /**
   * After seeding, before measuring: on PostgreSQL `VACUUM (ANALYZE)` and `CHECKPOINT`, so that
   * the planner has statistics (as autovacuum gives a production database; it may be off on a
   * shared machine) and the seed's dirty pages are written now, not by the checkpointer while a
   * scenario runs. On SQLite the seed's file is flushed to disk the same way (fsync): its dirty
   * pages in the kernel's cache (4 GB at 3,000,000 log groups) were otherwise still being written
   * back when the server started, and its first commit waited 0.6–1.8 s behind them.
   */
  settle: () => Promise<void>;
  /** Drops the PostgreSQL database (the SQLite file goes with the run's directory). */
  drop: () => Promise<void>;
}

const ADMIN_URL = process.env['BENCH_PG_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function withAdmin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

function flushToDisk(path: string): void {
  const fd = openSync(path, 'r+');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** `suffix` tells apart the PostgreSQL databases of one bench process (compare may make two). */
export async function prepareDatabase(db: BenchDb, dataDir: string, suffix = ''): Promise<PreparedDatabase> {
  if (db === 'sqlite') {
    const file = join(dataDir, 'signpost.db');
    return {
      db,
      databaseUrl: `sqlite:${file}`,
      settle: async () => {
        for (const path of [file, `${file}-wal`]) if (existsSync(path)) flushToDisk(path);
      },
      drop: async () => {},
    };
  }
  const name = `signpost_bench_${process.pid}${suffix}`;
  const version = await withAdmin(async (client) => {
    // A database left by an earlier run with the same pid (killed before its clean-up) goes first.
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${name}`);
    // No parallel query workers: PostgreSQL forks them from the postmaster, not from the pinned
    // backend, so they ran on whichever core was free, the server's included. Under the loop-delay
    // soak the log text search's parallel workers took 56 % of the server's core (perf, 2026-11-29),
    // and the bench measured them, not the server. The benches give the database its core(s) by
    // pinning its backends; a query's helpers must stay there too.
    await client.query(`ALTER DATABASE ${name} SET max_parallel_workers_per_gather = 0`);
    return ((await client.query('SHOW server_version')).rows[0] as { server_version: string }).server_version;
  });
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    db,
    databaseUrl: url.toString(),
    name,
    version,
    settle: async () => {
      const client = new pg.Client({ connectionString: url.toString() });
      await client.connect();
      try {
        await client.query('VACUUM (ANALYZE)');
        await client.query('CHECKPOINT');
      } finally {
        await client.end();
      }
    },
    drop: () => withAdmin(async (client) => void (await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`))),
  };
}

/**
 * Pins every backend process serving `name` to `core` (taskset on their pids). PostgreSQL forks
 * a backend per connection from the postmaster, which stays unpinned (other users of the same
 * PostgreSQL must not be moved), so this runs again before every measurement: the server's pool
 * opens connections as load needs them and closes idle ones after 10 s. The postmaster and its
 * background workers (WAL writer, checkpointer, autovacuum) are shared and stay unpinned.
 * Returns how many backends were pinned.
 */
export async function pinBackends(name: string, core: number): Promise<number> {
  const pids = await withAdmin(
    async (client) =>
      (
        await client.query<{ pid: number }>(
          'SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
          [name],
        )
      ).rows,
  );
  let pinned = 0;
  for (const { pid } of pids) {
    if (!spawnSync('taskset', ['-pc', String(core), String(pid)], { stdio: 'ignore' }).status) pinned++;
  }
  return pinned;
}
