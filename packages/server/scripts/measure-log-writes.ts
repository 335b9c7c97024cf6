/**
 * Entries per second that the log store writes on SQLite, before and after a change, in one run:
 * the store as it is in a base commit (default: the merge base with main) on a database migrated
 * as that commit left it, beside the store of this checkout on a fully migrated one. In process,
 * no HTTP: what the write path itself costs. Rounds alternate between the two, so both tables
 * grow alike and machine noise falls on both.
 *
 *   node scripts/measure-log-writes.ts [--base <commit>] [--rounds 5] [--batches 200] [--inflight 1]
 *
 * `--inflight n` keeps n batches waiting at once (as n clients would), which the store folds
 * into one transaction. Prints entries per CPU-second per round and the median, for 100-entry
 * batches of new lines and for one 100-entry batch sent again and again.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Database } from '../src/db/database.ts';
import { loadMigrations, migrate } from '../src/db/migrate.ts';
import { openDatabase } from '../src/db/open.ts';
import { createProject } from '../src/resources/projects/index.ts';
import type { LogEntry } from '../src/resources/logs/schemas.ts';
import * as current from '../src/resources/logs/log-writer.ts';

const { values } = parseArgs({
  options: {
    base: { type: 'string' },
    rounds: { type: 'string', default: '5' },
    batches: { type: 'string', default: '200' },
    inflight: { type: 'string', default: '1' },
  },
});
const ROUNDS = Number(values.rounds);
const BATCHES = Number(values.batches);
const INFLIGHT = Number(values.inflight);

const SERVER = join(dirname(fileURLToPath(import.meta.url)), '..');
const git = (...args: string[]) => execFileSync('git', args, { cwd: SERVER, encoding: 'utf8' }).trim();
const base = values.base ?? git('merge-base', 'HEAD', 'main');
const work = mkdtempSync(join(tmpdir(), 'signpost-log-writes-'));

type Store = Pick<typeof current, 'storeLogBatch'>;

/**
 * The base commit's write path, its other imports pointed at this checkout's modules (which it
 * shares). The write was store.ts alone, then log-writer.ts over store-group-writes.ts and
 * store-lines.ts: whichever of these the base has are taken from it, and import each other there.
 */
async function baseStore(): Promise<Store> {
  const path = (name: string) => `${base}:packages/server/src/resources/logs/${name}`;
  const exists = (name: string) => {
    try {
      execFileSync('git', ['cat-file', '-e', path(name)], { cwd: SERVER, stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  };
  const split = exists('log-writer.ts');
  const taken = new Set(
    (split ? ['log-writer.ts', 'store-group-writes.ts', 'store-lines.ts'] : ['store.ts', 'store-lines.ts']).filter(
      exists,
    ),
  );
  for (const name of taken) {
    const source = git('show', path(name)).replace(/from '(\.\.?\/[^']+)'/g, (_, target: string) =>
      taken.has(target.replace(/^\.\//, ''))
        ? `from '${target}'`
        : `from '${pathToFileURL(join(SERVER, 'src/resources/logs', target)).href}'`,
    );
    writeFileSync(join(work, name), source);
  }
  return import(pathToFileURL(join(work, split ? 'log-writer.ts' : 'store.ts')).href) as Promise<Store>;
}

/** The base commit's migrations, by id: those this checkout has and the base had too. */
function baseMigrations() {
  const ids = new Set(
    git('ls-tree', '--name-only', base, 'src/migrations/')
      .split('\n')
      .map((path) => path.replace(/^.*\//, '').replace(/(\.(sqlite|postgres))?\.(sql|ts)$/, '')),
  );
  return loadMigrations().filter((migration) => ids.has(migration.id));
}

async function database(name: string, migrations = loadMigrations()): Promise<Database> {
  const db = openDatabase({ databaseUrl: `sqlite:${join(work, name, 'signpost.db')}`, dataDir: join(work, name) });
  await migrate(db, migrations);
  await createProject(db, { id: 'measured', name: 'Measured', slug: 'measured', monthlyQuota: null });
  return db;
}

let line = 0;
/** 100 lines never sent before: level, category and source from small sets, the message new. */
function newBatch(): LogEntry[] {
  return Array.from({ length: 100 }, () => {
    line++;
    return {
      level: (['info', 'warn', 'error', 'debug'] as const)[line % 4]!,
      category: `category-${line % 20}`,
      source: `worker-${line % 8}`,
      message: `Request ${line} finished in ${line % 997} ms for tenant ${(line * 7919) % 10007}`,
    };
  });
}

interface Variant {
  name: string;
  db: Database;
  store: Store;
}

/**
 * Entries per second of this process's CPU time (user and system) writing `batches`, `INFLIGHT`
 * at a time. SQLite runs on this thread, so its work is in it too; on a busy machine CPU time is
 * steadier than wall time, which waits for the other processes' turns.
 */
async function entriesPerSecond(variant: Variant, batches: LogEntry[][]): Promise<number> {
  const scope = { projectId: 'measured', environment: 'live' as const };
  const started = process.cpuUsage();
  for (let from = 0; from < batches.length; from += INFLIGHT) {
    await Promise.all(
      batches
        .slice(from, from + INFLIGHT)
        .map((batch) => variant.store.storeLogBatch(variant.db, scope, batch, new Date())),
    );
  }
  const used = process.cpuUsage(started);
  const seconds = (used.user + used.system) / 1e6;
  return (batches.length * 100) / seconds;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const variants: Variant[] = [
    { name: `base ${base.slice(0, 7)}`, db: await database('base', baseMigrations()), store: await baseStore() },
    { name: 'this checkout', db: await database('current'), store: current },
  ];
  const repeated = newBatch();
  const results = new Map<string, number[]>();
  for (let round = 1; round <= ROUNDS; round++) {
    for (const variant of round % 2 ? variants : [...variants].reverse()) {
      const fresh = Array.from({ length: BATCHES }, newBatch);
      const again = Array.from({ length: BATCHES }, () => repeated);
      for (const [kind, batches] of [
        ['all-new', fresh],
        ['same batch repeated', again],
      ] as const) {
        const key = `${kind}\u0000${variant.name}`;
        results.set(key, [...(results.get(key) ?? []), await entriesPerSecond(variant, batches)]);
      }
    }
  }
  console.log(
    `SQLite, 100-entry batches, ${INFLIGHT} in flight, ${ROUNDS} rounds of ${BATCHES} batches; load average ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  );
  for (const [key, rates] of results) {
    const [kind, name] = key.split('\u0000');
    console.log(
      `${kind!.padEnd(20)} ${name!.padEnd(16)} median ${Math.round(median(rates)).toLocaleString('en')} entries/CPU-s  (rounds: ${rates.map((r) => Math.round(r)).join(', ')})`,
    );
  }
  for (const variant of variants) await variant.db.close();
  rmSync(work, { recursive: true, force: true });
}

await main();
