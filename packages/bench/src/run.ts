/**
 * `npm run bench`: starts the Signpost server on a fresh database as its own process, and a bare
 * node:http server as the ceiling, and measures both with wrk running as another process. With
 * taskset available, the servers get core 0 and wrk core 1, so the figures are "one server core"
 * figures; on PostgreSQL the backends serving the server's connections are pinned to core 0 too.
 * Each scenario is measured in rounds, each between two runs of the ceiling, so load from other
 * processes on the machine moves both sides of a round's ratio alike; a scenario's figures are
 * those of its median round. Prints a table; writes results/latest.{json,md} and the results
 * section of README.md.
 *
 * Database: `--db sqlite|postgres|both` (or BENCH_DB; default sqlite). PostgreSQL runs on a
 * database created for the run on BENCH_PG_URL's server and dropped after it; `both` measures
 * SQLite, then PostgreSQL, against the same ceiling process, and writes one table.
 *
 * Settings (environment): BENCH_SECONDS (scenario measurement per round, default 2),
 * BENCH_CEILING_SECONDS (ceiling per round, default 1), BENCH_ROUNDS (default 9), BENCH_WARMUP
 * (default 2), BENCH_CONNECTIONS (default 32), BENCH_ONLY (comma-separated scenario ids),
 * BENCH_PROFILE=1 (run the server with --cpu-prof; profiles land in results/profiles/),
 * BENCH_REST_SECONDS (how long the server rests after the last scenario before its memory is read
 * a third time, default 60; 0 skips it), BENCH_NO_README=1 (leave README.md alone), BENCH_RESULTS_DIR (where results go instead of
 * results/), BENCH_SERVER_MAIN (another server entry point instead of the built server's bin, e.g.
 * a patched checkout, to compare a change), BENCH_PG_URL (the PostgreSQL server's maintenance
 * database, default postgres://postgres@127.0.0.1:5432/postgres).
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import {
  type BenchDb,
  DB_LABEL,
  databasesOf,
  dbModeOf,
  pinBackends,
  type PreparedDatabase,
  prepareDatabase,
} from './databases.ts';
import { type Memory, memoryOf } from './memory.ts';
import { hasTaskset, startProcess, startServer, stopProcess } from './processes.ts';
import { median } from './stats.ts';
import {
  BenchFailure,
  fail,
  inboxScenarioIds,
  roadmapScenarioId,
  type Scenario,
  scenarios,
  serverValuesOf,
} from './scenarios.ts';
import { BENCH_ROADMAP_SIZES, seedBenchDatabase, type SeedOptions } from './seed.ts';
import { errorsOf, runWrk, wrkVersion, type WrkRequest, type WrkResult } from './wrk.ts';

const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
// The server as production runs it: built, through its bin (the bench script builds it first).
const SERVER_MAIN =
  process.env['BENCH_SERVER_MAIN'] ?? fileURLToPath(new URL('../../server/bin/signpost-server.js', import.meta.url));
const CEILING_MAIN = fileURLToPath(new URL('./ceiling.ts', import.meta.url));
const RESULTS_DIR = process.env['BENCH_RESULTS_DIR'] ?? join(PACKAGE_DIR, 'results');

const env = process.env;
const number = (name: string, fallback: number, min = 1) => {
  const value = Number(env[name]);
  return env[name] !== undefined && env[name] !== '' && Number.isFinite(value) && value >= min ? value : fallback;
};
const SECONDS = number('BENCH_SECONDS', 2);
const WARMUP = number('BENCH_WARMUP', 2, 0);
const CEILING_SECONDS = number('BENCH_CEILING_SECONDS', 1);
const ROUNDS = Math.trunc(number('BENCH_ROUNDS', 9));
const CONNECTIONS = number('BENCH_CONNECTIONS', 32);
/** How long the server rests after the last scenario before its memory is read again (0: not read). */
const REST_SECONDS = number('BENCH_REST_SECONDS', 60, 0);
const ONLY = env['BENCH_ONLY'] ? new Set(env['BENCH_ONLY'].split(',').map((s) => s.trim())) : undefined;
const PROFILE = env['BENCH_PROFILE'] === '1';
const DB_MODE = (() => {
  try {
    return dbModeOf(process.argv.slice(2), env);
  } catch (error) {
    process.stderr.write(`bench: ${(error as Error).message}\n`);
    return process.exit(2);
  }
})();
const DATABASES = databasesOf(DB_MODE);
/** The core of the server (and PostgreSQL's backends); wrk gets the other. */
const SERVER_CORE = 0;
const WRK_CORE = 1;

const wanted = (id: string) => !ONLY || ONLY.has(id);
/** Seed only the expensive parts a selection measures (100,000 log groups, 100,000 roadmap items). */
const SEED_OPTIONS: SeedOptions = {
  logGroups: ['logs-list', 'logs-list-level', 'logs-list-text', 'logs-list-cursor', 'logs-histogram'].some(wanted),
  roadmapSizes: BENCH_ROADMAP_SIZES.filter(
    (size) => wanted(roadmapScenarioId(size)) || inboxScenarioIds(size).some(wanted),
  ),
};

interface Measured {
  id: string;
  db: BenchDb;
  label: string;
  /** The ceiling of the median round (the mean of the runs right before and after it); `ratio` is relative to it. */
  ceilingRequestsPerSecond: number;
  /** Every round: the ceiling around it, the scenario, their ratio. */
  rounds: { ceilingRequestsPerSecond: number; requestsPerSecond: number; p99LatencyMs: number; ratio: number }[];
  requestsPerSecond: number;
  entriesPerSecond?: number;
  latencyMs: WrkResult['latencyMs'];
  ratio: number | null;
  /** For a target relative to another scenario: this row's ratio as a share of that one's. */
  relative?: { of: string; share: number };
  target: string;
  met: boolean | null;
  errors: WrkResult['errors'];
  requests: number;
}

interface Ceiling {
  requestsPerSecond: number;
  p99: number;
  runs: number;
}

/** One database's part of a run. */
interface DbRun {
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

const sumErrors = (results: WrkResult[]): WrkResult['errors'] => {
  const total = { connect: 0, read: 0, write: 0, status: 0, timeout: 0 };
  for (const { errors } of results)
    for (const name of Object.keys(total) as (keyof typeof total)[]) total[name] += errors[name];
  return total;
};

async function measure(
  origin: string,
  request: WrkRequest,
  scriptDir: string,
  seconds = SECONDS,
  warmup = WARMUP,
): Promise<WrkResult> {
  const options = { connections: CONNECTIONS, threads: 1, core: hasTaskset ? WRK_CORE : undefined, scriptDir };
  if (warmup > 0) await runWrk(origin, request, { ...options, seconds: warmup });
  return runWrk(origin, request, { ...options, seconds });
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const percent = (ratio: number | null) => (ratio === null ? '' : `${(ratio * 100).toFixed(1)} %`);
/** The ratio to the ceiling, and for a relative target the share of the other scenario's. */
const versus = (row: Measured) =>
  `${percent(row.ratio)}${row.relative ? ` (${(row.relative.share * 100).toFixed(0)} % of ${row.relative.of})` : ''}`;
const rpsOf = (row: Measured) =>
  row.entriesPerSecond !== undefined
    ? `${fmt(row.requestsPerSecond)} (${fmt(row.entriesPerSecond)} entries/s)`
    : fmt(row.requestsPerSecond);
const metOf = (row: Measured | undefined) => (!row || row.met === null ? '' : row.met ? 'yes' : '**no**');
const mib = (memory: Memory | undefined) => (memory ? `${memory.rssMiB.toFixed(1)} MiB` : 'n/a');
const peakMib = (memory: Memory | undefined) => (memory ? `${memory.peakMiB.toFixed(1)} MiB` : 'n/a');
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

const tableOf = (runs: DbRun[]) => (runs.length === 2 ? sideBySideTable(runs) : singleTable(runs[0]!));

/** A scenario in rounds, each between two ceiling runs; `beforeRun` runs before every measurement. */
async function measureScenario(
  db: BenchDb,
  origin: string,
  scenario: Scenario,
  scriptDir: string,
  runCeiling: (warmup: number) => Promise<WrkResult>,
  beforeRun: () => Promise<void>,
): Promise<Measured> {
  await scenario.check(origin);
  await beforeRun();
  if (WARMUP > 0) await measure(origin, scenario.request, scriptDir, WARMUP, 0);
  // Each measurement of the scenario sits between two of the ceiling, and its ratio is to
  // their mean: the machine's speed drifts within seconds here, and a drift during the round
  // then moves both sides alike.
  const rounds: { ceilingRequestsPerSecond: number; result: WrkResult; ratio: number }[] = [];
  let before = await runCeiling(0);
  for (let round = 0; round < ROUNDS; round++) {
    await beforeRun();
    // Again a moment into the round: connections the load opens then are pinned for the rest of it.
    const [resultRound] = await Promise.all([
      measure(origin, scenario.request, scriptDir, SECONDS, 0),
      delay(Math.min(300, SECONDS * 250)).then(beforeRun),
    ]);
    const after = await runCeiling(0);
    const ceilingRequestsPerSecond = (before.requestsPerSecond + after.requestsPerSecond) / 2;
    rounds.push({
      ceilingRequestsPerSecond,
      result: resultRound,
      ratio: resultRound.requestsPerSecond / ceilingRequestsPerSecond,
    });
    before = after;
  }
  // The median round by ratio stands for the scenario; failures in any round count.
  const { ceilingRequestsPerSecond, result, ratio } = [...rounds].sort((x, y) => x.ratio - y.ratio)[
    Math.floor(rounds.length / 2)
  ]!;
  const failures = sumErrors(rounds.map((r) => r.result));
  const noResponse = rounds.some((r) => r.result.requests === 0);
  const entriesPerSecond = scenario.entriesPerRequest
    ? result.requestsPerSecond * scenario.entriesPerRequest
    : undefined;
  let target = '';
  let met: boolean | null = null;
  if (scenario.target && 'ratio' in scenario.target) {
    target = `≥ ${scenario.target.ratio * 100} % of ceiling`;
    met = ratio >= scenario.target.ratio;
  } else if (scenario.target && 'entriesPerSecond' in scenario.target) {
    target = `≥ ${fmt(scenario.target.entriesPerSecond)} entries/s`;
    met = (entriesPerSecond ?? 0) >= scenario.target.entriesPerSecond;
  } else if (scenario.target && 'of' in scenario.target) {
    // Judged once the scenario it is relative to has been measured too (judgeRelative).
    target = `≥ ${scenario.target.share * 100} % of ${scenario.target.of}`;
  }
  if (errorsOf(failures) > 0 || noResponse) met = false;
  process.stdout.write(
    `  [${DB_LABEL[db]}] ${scenario.label}: ${fmt(result.requestsPerSecond)} req/s` +
      (entriesPerSecond !== undefined ? ` = ${fmt(entriesPerSecond)} entries/s` : '') +
      `, p99 ${result.latencyMs.p99} ms, ${(ratio * 100).toFixed(1)} % of ceiling (median of ${rounds.map((r) => `${(r.ratio * 100).toFixed(1)}`).join(', ')} %)` +
      (errorsOf(failures) > 0 ? `, ERRORS ${JSON.stringify(failures)}` : '') +
      (noResponse ? ' (NO RESPONSE COMPLETED: see README, "Reading the numbers")' : '') +
      '\n',
  );
  return {
    id: scenario.id,
    db,
    label: scenario.label,
    ceilingRequestsPerSecond,
    rounds: rounds.map((r) => ({
      ceilingRequestsPerSecond: r.ceilingRequestsPerSecond,
      requestsPerSecond: r.result.requestsPerSecond,
      p99LatencyMs: r.result.latencyMs.p99,
      ratio: r.ratio,
    })),
    requestsPerSecond: result.requestsPerSecond,
    ...(entriesPerSecond !== undefined ? { entriesPerSecond } : {}),
    latencyMs: result.latencyMs,
    ratio,
    target,
    met,
    errors: failures,
    requests: rounds.reduce((sum, r) => sum + r.result.requests, 0),
  };
}

/**
 * Targets relative to another scenario (metered against unmetered, the large roadmap against the
 * small one): met when this row's ratio to the ceiling is at least `share` of the other's, both
 * measured on the same database in the same run. Without the other row (a subset), left unjudged.
 */
function judgeRelative(rows: Measured[], chosen: Scenario[]): void {
  for (const scenario of chosen) {
    if (!scenario.target || !('of' in scenario.target)) continue;
    const row = rows.find((r) => r.id === scenario.id);
    const other = rows.find((r) => r.id === (scenario.target as { of: string }).of);
    if (!row || !other || row.ratio === null || other.ratio === null) continue;
    row.relative = { of: other.id, share: row.ratio / other.ratio };
    // A row that had errors or rounds without any response stays unmet.
    row.met = row.met !== false && row.relative.share >= scenario.target.share;
  }
}

const ceilingOf = (runs: WrkResult[]): Ceiling => ({
  requestsPerSecond: median(runs.map((run) => run.requestsPerSecond)),
  p99: median(runs.map((run) => run.latencyMs.p99)),
  runs: runs.length,
});

async function main(): Promise<void> {
  const wrk = wrkVersion();
  if (!wrk) fail('wrk is not installed (Debian/Ubuntu: apt-get install wrk; macOS: brew install wrk)');
  const runId = Date.now().toString(36);
  const work = mkdtempSync(join(os.tmpdir(), 'signpost-bench-'));
  const scriptDir = join(work, 'wrk');
  mkdirSync(scriptDir, { recursive: true });
  const profileDir = join(RESULTS_DIR, 'profiles');
  const started = Date.now();
  const loadBefore = os.loadavg();
  const children: ChildProcess[] = [];
  const prepared: PreparedDatabase[] = [];
  const cleanUp = async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    for (const database of prepared) await database.drop().catch(() => {});
    rmSync(work, { recursive: true, force: true });
  };
  process.on('SIGINT', () => {
    // Dropping the database ends the connections still open to it (the seed's, if interrupted
    // while seeding); their errors are expected now and must not stop the clean-up.
    process.on('uncaughtException', () => {});
    void cleanUp().finally(() => process.exit(130));
  });

  try {
    const pinning = hasTaskset
      ? `server${DATABASES.includes('postgres') ? ' (and, on PostgreSQL, its database backends)' : ''} on core ${SERVER_CORE}, wrk on core ${WRK_CORE}`
      : 'no CPU pinning (taskset missing or one core)';
    process.stdout.write(
      `Signpost benchmark on ${DATABASES.map((db) => DB_LABEL[db]).join(' and ')}: ${SECONDS} s per scenario after ${WARMUP} s warm-up, ${CONNECTIONS} connections, ${pinning}\n`,
    );

    // 1. The ceiling, warmed up once; measured again around every round of every scenario.
    const ceilingProcess = await startProcess(CEILING_MAIN, { PORT: '0' }, /listening (\d+)/);
    children.push(ceilingProcess.child);
    const ceilingOrigin = `http://127.0.0.1:${ceilingProcess.port}`;
    let ceilingRuns: WrkResult[] = [];
    const runCeiling = async (warmup: number) => {
      const result = await measure(ceilingOrigin, { path: '/' }, scriptDir, CEILING_SECONDS, warmup);
      ceilingRuns.push(result);
      process.stdout.write(
        `  ceiling (bare node:http): ${fmt(result.requestsPerSecond)} req/s, p99 ${result.latencyMs.p99} ms\n`,
      );
      return result;
    };
    await runCeiling(WARMUP);

    // 2. Signpost on each database in turn: seeded, started, measured, stopped.
    const runs: DbRun[] = [];
    for (const db of DATABASES) {
      ceilingRuns = [];
      const dataDir = join(work, `data-${db}`);
      mkdirSync(dataDir, { recursive: true });
      const database = await prepareDatabase(db, dataDir);
      prepared.push(database);
      const seedStarted = Date.now();
      const data = await seedBenchDatabase(database.databaseUrl, dataDir, SEED_OPTIONS);
      const seedSeconds = Math.round((Date.now() - seedStarted) / 100) / 10;
      process.stdout.write(`  [${DB_LABEL[db]}] seeded in ${seedSeconds} s\n`);
      await database.settle();
      if (PROFILE) mkdirSync(profileDir, { recursive: true });
      const server = await startServer(
        SERVER_MAIN,
        dataDir,
        database.databaseUrl,
        PROFILE ? ['--cpu-prof', '--cpu-prof-interval=100', `--cpu-prof-dir=${profileDir}`] : [],
      );
      children.push(server.child);
      const idle = memoryOf(server.child.pid);
      process.stdout.write(`  [${DB_LABEL[db]}] server RSS idle: ${mib(idle)}\n`);
      const origin = `http://127.0.0.1:${server.port}`;

      let pinnedBackends = 0;
      const beforeRun = async () => {
        if (!hasTaskset || !database.name) return;
        pinnedBackends = Math.max(pinnedBackends, await pinBackends(database.name, SERVER_CORE));
      };

      const { hash, ofrepEtag } = await serverValuesOf(origin, data.key);
      const manage = data.managementToken
        ? { token: data.managementToken, logsProjectId: data.logsProjectId }
        : undefined;
      const chosen = scenarios(data.key, data.projectId, runId, hash, manage, {
        meteredKey: data.meteredKey,
        ingestNumber: data.ingestNumber,
        roadmapKeys: data.roadmapKeys,
        ...(ofrepEtag ? { ofrepEtag } : {}),
      }).filter((scenario) => wanted(scenario.id));
      const results: Measured[] = [];
      for (const scenario of chosen)
        results.push(await measureScenario(db, origin, scenario, scriptDir, runCeiling, beforeRun));
      judgeRelative(results, chosen);
      const loaded = memoryOf(server.child.pid);
      process.stdout.write(
        `  [${DB_LABEL[db]}] server RSS loaded: ${mib(loaded)} (peak ${peakMib(loaded)})` +
          (database.name ? `; PostgreSQL backends pinned: up to ${pinnedBackends}` : '') +
          '\n',
      );
      let rested: Memory | undefined;
      if (REST_SECONDS > 0) {
        await delay(REST_SECONDS * 1000);
        rested = memoryOf(server.child.pid);
        process.stdout.write(`  [${DB_LABEL[db]}] server RSS after ${REST_SECONDS} s at rest: ${mib(rested)}\n`);
      }
      await stopProcess(server.child);
      await database.drop();
      runs.push({
        db,
        version: db === 'sqlite' ? (process.versions.sqlite ?? 'unknown') : (database.version ?? 'unknown'),
        seedSeconds,
        memory: { idle, loaded, rested },
        ...(database.name ? { pinnedBackends } : {}),
        ceiling: ceilingOf(ceilingRuns),
        ceilingRuns,
        results,
      });
    }
    await stopProcess(ceilingProcess.child);

    // 3. Results.
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
        `${runs.some((run) => run.db === 'postgres') ? ' (PostgreSQL then VACUUM (ANALYZE) and CHECKPOINT before the first scenario)' : ''}. ` +
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
    if (env['BENCH_NO_README'] !== '1' && !ONLY && !env['BENCH_RESULTS_DIR']) {
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
    if (PROFILE) process.stdout.write(`CPU profiles of the server: ${profileDir}\n`);
  } finally {
    await cleanUp();
  }
}

main().catch((error: unknown) => {
  const text = error instanceof BenchFailure ? error.message : error instanceof Error ? error.stack : String(error);
  process.stderr.write(`bench failed: ${text}\n`);
  process.exit(1);
});
