/**
 * What `npm run bench` writes when it is done: the table (one database, or both side by side),
 * results/<name>.{json,md} with the machine, the settings and every round, and the results
 * section of README.md for a full run.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { type BenchDb, DB_LABEL } from './databases.ts';
import type { Memory } from './memory.ts';
import { hasTaskset } from './processes.ts';
import { type Ceiling, fmt, type Measured } from './run-rounds.ts';
import { BENCH_SMOKE } from './seed.ts';
import {
  CEILING_SECONDS,
  CONNECTIONS,
  DATABASES,
  DB_MODE,
  env,
  ONLY,
  PACKAGE_DIR,
  REST_SECONDS,
  RESULTS_DIR,
  ROUNDS,
  SECONDS,
  SERVER_CORE,
  WARMUP,
  WRK_CORE,
} from './run-settings.ts';
import type { WrkResult } from './wrk.ts';

/** One database's part of a run. */
export interface DbRun {
  db: BenchDb;
  version: string;
  seedSeconds: number;
  /**
   * The server's resident memory: idle (started, before its first request), loaded (after the
   * last scenario) and rested (after BENCH_REST_SECONDS more without a request).
   */
  memory: { idle: Memory | undefined; loaded: Memory | undefined; rested: Memory | undefined };
  /** PostgreSQL: the most backends pinned to the server's core before one measurement. */
  pinnedBackends?: number;
  ceiling: Ceiling;
  ceilingRuns: WrkResult[];
  results: Measured[];
}

const percent = (ratio: number | null) => (ratio === null ? '' : `${(ratio * 100).toFixed(1)} %`);
/** The ratio to the ceiling, and for a relative target the share of the other scenario's. */
const versus = (row: Measured) =>
  `${percent(row.ratio)}${row.relative ? ` (${(row.relative.share * 100).toFixed(0)} % of ${row.relative.of})` : ''}`;
const rpsOf = (row: Measured) =>
  row.entriesPerSecond !== undefined
    ? `${fmt(row.requestsPerSecond)} (${fmt(row.entriesPerSecond)} entries/s)`
    : fmt(row.requestsPerSecond);
const metOf = (row: Measured | undefined) => (!row || row.met === null ? '' : row.met ? 'yes' : '**no**');
export const mib = (memory: Memory | undefined) => (memory ? `${memory.rssMiB.toFixed(1)} MiB` : 'n/a');
export const peakMib = (memory: Memory | undefined) => (memory ? `${memory.peakMiB.toFixed(1)} MiB` : 'n/a');
const ceilingLabel = (ceiling: Ceiling) => `Ceiling: bare node:http, small JSON (median of ${ceiling.runs} runs)`;

function singleTable(run: DbRun): string {
  const lines = [
    '| Scenario | req/s | p99 latency | vs ceiling | Target | Met |',
    '|---|---:|---:|---:|---|:---:|',
    `| ${ceilingLabel(run.ceiling)} | ${fmt(run.ceiling.requestsPerSecond)} | ${run.ceiling.p99.toFixed(2)} ms | 100 % | | |`,
  ];
  for (const row of run.results)
    lines.push(
      `| ${row.label} | ${rpsOf(row)} | ${row.latencyMs.p99.toFixed(2)} ms | ${versus(row)} | ${row.target} | ${metOf(row)} |`,
    );
  lines.push(
    `| Server RSS, idle (started, before the first request) | ${mib(run.memory.idle)} | | | | |`,
    `| Server RSS, loaded (after the last scenario; peak in brackets) | ${mib(run.memory.loaded)} (${peakMib(run.memory.loaded)}) | | | | |`,
    `| Server RSS, rested (${REST_SECONDS} s without a request after the last scenario) | ${mib(run.memory.rested)} | | | | |`,
  );
  return lines.join('\n');
}

/** Both databases side by side: each ratio is to the ceiling measured in that database's rounds. */
function sideBySideTable(runs: DbRun[]): string {
  const [a, b] = runs as [DbRun, DbRun];
  const lines = [
    `| Scenario | ${DB_LABEL[a.db]} req/s | p99 | vs ceiling | ${DB_LABEL[b.db]} req/s | p99 | vs ceiling | Target | Met (${DB_LABEL[a.db]} / ${DB_LABEL[b.db]}) |`,
    '|---|---:|---:|---:|---:|---:|---:|---|:---:|',
    `| Ceiling: bare node:http, small JSON (median of ${a.ceiling.runs} and ${b.ceiling.runs} runs) | ${fmt(a.ceiling.requestsPerSecond)} | ${a.ceiling.p99.toFixed(2)} ms | 100 % | ${fmt(b.ceiling.requestsPerSecond)} | ${b.ceiling.p99.toFixed(2)} ms | 100 % | | |`,
  ];
  const ids = [...new Set([...a.results, ...b.results].map((row) => row.id))];
  const cells = (row: Measured | undefined) =>
    row ? `${rpsOf(row)} | ${row.latencyMs.p99.toFixed(2)} ms | ${versus(row)}` : ' | | ';
  for (const id of ids) {
    const ra = a.results.find((row) => row.id === id);
    const rb = b.results.find((row) => row.id === id);
    const any = (ra ?? rb)!;
    lines.push(`| ${any.label} | ${cells(ra)} | ${cells(rb)} | ${any.target} | ${metOf(ra)} / ${metOf(rb)} |`);
  }
  lines.push(
    `| Server RSS, idle (started, before the first request) | ${mib(a.memory.idle)} | | | ${mib(b.memory.idle)} | | | | |`,
    `| Server RSS, loaded (after the last scenario; peak in brackets) | ${mib(a.memory.loaded)} (${peakMib(a.memory.loaded)}) | | | ${mib(b.memory.loaded)} (${peakMib(b.memory.loaded)}) | | | | |`,
    `| Server RSS, rested (${REST_SECONDS} s without a request after the last scenario) | ${mib(a.memory.rested)} | | | ${mib(b.memory.rested)} | | | | |`,
  );
  return lines.join('\n');
}

export const tableOf = (runs: DbRun[]) => (runs.length === 2 ? sideBySideTable(runs) : singleTable(runs[0]!));

/**
 * Writes the run's results (results/, and README.md for a full run) and prints the table.
 * `started`: the run's start (ms); `loadBefore`: the load average then; `wrk`: wrk's version line.
 */
export function writeResults(runs: DbRun[], started: number, loadBefore: number[], wrk: string): void {
  const cpus = os.cpus();
  const machine = {
    cpus: cpus.length,
    cpuModel: cpus[0]?.model ?? 'unknown',
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
    sqlite: process.versions.sqlite ?? 'unknown',
    ...(runs.some((run) => run.db === 'postgres')
      ? { postgres: runs.find((run) => run.db === 'postgres')!.version }
      : {}),
    wrk,
    pinned: hasTaskset,
    loadAverageBefore: loadBefore.map((n) => Math.round(n * 100) / 100),
    loadAverageAfter: os.loadavg().map((n) => Math.round(n * 100) / 100),
  };
  const report = {
    date: new Date().toISOString(),
    machine,
    settings: {
      db: DB_MODE,
      seconds: SECONDS,
      rounds: ROUNDS,
      warmupSeconds: WARMUP,
      ceilingSeconds: CEILING_SECONDS,
      connections: CONNECTIONS,
      wrkThreads: 1,
      // Seeded at a fiftieth of the sizes the ids name (BENCH_SMOKE, seed.ts): not a measurement.
      ...(BENCH_SMOKE ? { smoke: true } : {}),
    },
    databases: runs.map((run) => ({
      db: run.db,
      version: run.version,
      seedSeconds: run.seedSeconds,
      memory: run.memory,
      ...(run.pinnedBackends !== undefined ? { pinnedBackends: run.pinnedBackends } : {}),
      ceiling: {
        requestsPerSecond: run.ceiling.requestsPerSecond,
        p99LatencyMs: run.ceiling.p99,
        runs: run.ceilingRuns.map((r) => ({
          requestsPerSecond: r.requestsPerSecond,
          latencyMs: r.latencyMs,
          errors: r.errors,
        })),
      },
    })),
    /** Every measured row, each with its database. */
    results: runs.flatMap((run) => run.results),
    totalSeconds: Math.round((Date.now() - started) / 1000),
  };
  const pinned = !machine.pinned
    ? 'No CPU pinning'
    : DATABASES.includes('postgres')
      ? `Server pinned to core ${SERVER_CORE} (on PostgreSQL with the backends serving its database), wrk to core ${WRK_CORE}`
      : `Server pinned to core ${SERVER_CORE}, wrk to core ${WRK_CORE}`;
  const markdown = [
    `Measured ${report.date.slice(0, 16).replace('T', ' ')} UTC on ${machine.cpus} × ${machine.cpuModel}, ${machine.memoryGiB} GiB, ${machine.os}; ` +
      `Node ${machine.node}, SQLite ${machine.sqlite}${machine.postgres ? `, PostgreSQL ${machine.postgres}` : ''}, ${machine.wrk.replace(/ Copyright.*/, '')}. ` +
      `${pinned}; ${CONNECTIONS} connections, ` +
      `each scenario warmed up for ${WARMUP} s, then measured in ${ROUNDS} rounds of ${SECONDS} s, each between two ${CEILING_SECONDS} s runs ` +
      `of the ceiling; each row is the scenario's median round by its ratio to the mean of the two ceiling runs around it. ` +
      `Seeding took ${runs.map((run) => `${run.seedSeconds} s on ${DB_LABEL[run.db]}`).join(' and ')}` +
      `${runs.some((run) => run.db === 'postgres') ? ' (PostgreSQL then VACUUM (ANALYZE) and CHECKPOINT before the first scenario)' : ''}` +
      `${runs.some((run) => run.db === 'sqlite') ? ' (the SQLite file then flushed to disk)' : ''}. ` +
      `Load average before the run: ${machine.loadAverageBefore.join(', ')}; after: ${machine.loadAverageAfter.join(', ')}.`,
    '',
    tableOf(runs),
    '',
  ].join('\n');
  // A subset run (BENCH_ONLY) goes to results/subset*.*; the full run is the one recorded.
  // PostgreSQL and both-database runs carry their mode in the name (latest-both.json, …).
  const name = `${ONLY ? 'subset' : 'latest'}${DB_MODE === 'sqlite' ? '' : `-${DB_MODE}`}`;
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(join(RESULTS_DIR, `${name}.json`), `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(join(RESULTS_DIR, `${name}.md`), `# ${ONLY ? 'Subset' : 'Latest'} benchmark results\n\n${markdown}`);
  if (env['BENCH_NO_README'] !== '1' && !ONLY && !env['BENCH_RESULTS_DIR'] && !BENCH_SMOKE) {
    const readmePath = join(PACKAGE_DIR, 'README.md');
    const readme = readFileSync(readmePath, 'utf8');
    const start = '<!-- results:start -->';
    const end = '<!-- results:end -->';
    const from = readme.indexOf(start);
    const to = readme.indexOf(end);
    if (from >= 0 && to > from) {
      writeFileSync(readmePath, `${readme.slice(0, from + start.length)}\n${markdown}${readme.slice(to)}`);
    }
  }
  process.stdout.write(
    `\n${tableOf(runs)}\n\nWrote ${join(RESULTS_DIR, `${name}.json`)} and ${name}.md (${report.totalSeconds} s).\n`,
  );
}
