/**
 * `npm run loop-delay -w @signpost/bench` (issue 37): the server's event-loop delay while a mixed
 * load runs at once against data at size, the "no request stalls the others" bound (p99 at most
 * 20 ms). The server runs with `loop-delay-probe.ts` loaded (perf_hooks.monitorEventLoopDelay);
 * the mix is the bench's own scenarios, each its own wrk process with a few connections, all
 * running together: public reads (features, the 100,000-feature roadmap, site config, OFREP),
 * public writes (new error groups, log batches), board pages and management reads of the
 * 100,000 log groups (`BENCH_LOG_GROUPS` for another count; lists, a text search, the histogram), and
 * the hosted MCP (a `logs` tool search of those groups, scenarios-mcp.ts).
 *
 *   npm run loop-delay -w @signpost/bench            # SQLite; --db postgres | both
 *   BENCH_SOAK_SECONDS (30), BENCH_SOAK_CONNECTIONS (2 per scenario),
 *   BENCH_SOAK_SMALL=1: 100 roadmap features and no log groups (a quick check of the step itself)
 *   BENCH_SERVER_NODE_ARGS: node flags for the server, e.g. '--cpu-prof --cpu-prof-dir=/tmp/prof'
 *
 * Prints the delay (p50, p99, max) and each scenario's rate, p99 and errors; writes
 * results/loop-delay[-<db>].json. The server is pinned to core 0 and every wrk of the mix to core 1
 * (with taskset), so the delay is the server's own and not the run queue of a core it shares with
 * eleven load generators (on PostgreSQL its backends of the bench's database go to core 1 too); BENCH_SOAK_WARMUP_SECONDS (10) of the mix run first and are not counted.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { DB_LABEL, databasesOf, dbModeOf, pinBackends, type PreparedDatabase, prepareDatabase } from './databases.ts';
import { hasTaskset, SERVER_NODE_ARGS, startServer, stopProcess, WRK_CORE } from './processes.ts';
import { MCP_LOGS_SEARCH, roadmapScenarioId } from './scenario-ids.ts';
import { managementOf, scenarios, serverValuesOf } from './scenarios.ts';
import { BENCH_LOG_GROUPS, seedBenchDatabase } from './seed.ts';
import { errorsOf, runWrk } from './wrk.ts';

const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
const SERVER_MAIN =
  process.env['BENCH_SERVER_MAIN'] ?? fileURLToPath(new URL('../../server/bin/signpost-server.js', import.meta.url));
const PROBE = fileURLToPath(new URL('./loop-delay-probe.ts', import.meta.url));
const RESULTS_DIR = process.env['BENCH_RESULTS_DIR'] ?? join(PACKAGE_DIR, 'results');
const SECONDS = Number(process.env['BENCH_SOAK_SECONDS'] ?? 30);
const CONNECTIONS = Number(process.env['BENCH_SOAK_CONNECTIONS'] ?? 2);
const SMALL = process.env['BENCH_SOAK_SMALL'] === '1';
const WARMUP = Number(process.env['BENCH_SOAK_WARMUP_SECONDS'] ?? 10);
const ROADMAP = SMALL ? 100 : 100_000;
/** The bound the issue sets on the delay's p99. */
const BOUND_MS = 20;

const MIX = [
  'features',
  'site-config',
  'ofrep-bulk-304',
  roadmapScenarioId(ROADMAP),
  'errors-new',
  'logs',
  'board-ideas',
  'board-search',
  'logs-list',
  'logs-list-text',
  'logs-histogram',
  MCP_LOGS_SEARCH,
];

/** BENCH_SOAK_ONLY: a part of the mix (comma-separated ids), to find which of it delays the loop. */
const ONLY = process.env['BENCH_SOAK_ONLY']?.split(',');

interface Delay {
  samples: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

async function soak(db: 'sqlite' | 'postgres', work: string) {
  const dataDir = join(work, `data-${db}`);
  mkdirSync(dataDir, { recursive: true });
  let database: PreparedDatabase | undefined;
  try {
    database = await prepareDatabase(db, dataDir);
    const started = Date.now();
    const data = await seedBenchDatabase(database.databaseUrl, dataDir, {
      logGroups: !SMALL,
      roadmapSizes: [ROADMAP],
    });
    process.stdout.write(`  [${DB_LABEL[db]}] seeded in ${Math.round((Date.now() - started) / 1000)} s\n`);
    await database.settle();
    const out = join(work, `delay-${db}.jsonl`);
    process.env['LOOP_DELAY_OUT'] = out;
    const server = await startServer(SERVER_MAIN, dataDir, database.databaseUrl, [
      '--import',
      PROBE,
      ...SERVER_NODE_ARGS,
    ]);
    try {
      const origin = `http://127.0.0.1:${server.port}`;
      const { hash, ofrepEtag } = await serverValuesOf(origin, data.key);
      const manage = managementOf(data);
      const chosen = scenarios(data.key, data.projectId, Date.now().toString(36), hash, manage, {
        meteredKey: data.meteredKey,
        ingestNumber: data.ingestNumber,
        roadmapKeys: data.roadmapKeys,
        ...(ofrepEtag ? { ofrepEtag } : {}),
      }).filter((scenario) => (ONLY ?? MIX).includes(scenario.id));
      for (const scenario of chosen) await scenario.check(origin);
      const scriptDir = join(work, `wrk-${db}`);
      mkdirSync(scriptDir, { recursive: true });
      // The delay of the quiet server first (its baseline: 2 s with no request, after start-up and
      // the checks), then under the mix once every scenario's path is compiled (a warm-up of the
      // same mix, not counted: start-up compiling is a one-time cost, not a request stalling others).
      server.child.kill('SIGUSR2'); // start-up and checks: dropped
      await delay(2_000);
      server.child.kill('SIGUSR2'); // quiet
      const wrkOptions = { threads: 1, connections: CONNECTIONS, scriptDir, core: hasTaskset ? WRK_CORE : undefined };
      // PostgreSQL's backends serving the bench's database go to the load generators' core too:
      // sharing the server's core, a dozen runnable backends held it in the scheduler's queue for
      // a period of several milliseconds each turn, which the probe read as the loop's delay.
      // Again every few seconds: the pool opens connections as the load needs them.
      const pinning = database.name && hasTaskset ? keepPinned(database.name) : undefined;
      await Promise.all(chosen.map((scenario) => runWrk(origin, scenario.request, { ...wrkOptions, seconds: WARMUP })));
      server.child.kill('SIGUSR2'); // warm-up: dropped
      const runs = chosen.map((scenario) =>
        runWrk(origin, scenario.request, { ...wrkOptions, seconds: SECONDS }).then((result) => ({
          id: scenario.id,
          result,
        })),
      );
      const results = await Promise.all(runs);
      server.child.kill('SIGUSR2'); // the mix
      pinning?.stop();
      await delay(300);
      const lines = readFileSync(out, 'utf8').trim().split('\n');
      const [, quiet, , loaded] = lines.map((line) => JSON.parse(line) as Delay);
      return { db, quiet: quiet!, loaded: loaded!, results };
    } finally {
      await stopProcess(server.child);
      // BENCH_SERVER_OUTPUT: where to keep the server's output (e.g. with '--trace-gc').
      const keep = process.env['BENCH_SERVER_OUTPUT'];
      if (keep) writeFileSync(`${keep}.${db}`, server.output());
    }
  } finally {
    await database?.drop();
  }
}

/** Pins the backends of database `name` to the load generators' core now and every 2 s until stopped. */
function keepPinned(name: string): { stop(): void } {
  const pin = () => void pinBackends(name, WRK_CORE).catch(() => undefined);
  pin();
  const timer = setInterval(pin, 2_000);
  return { stop: () => clearInterval(timer) };
}

async function main(): Promise<void> {
  const mode = dbModeOf(process.argv.slice(2), process.env);
  const work = mkdtempSync(join(os.tmpdir(), 'signpost-loop-delay-'));
  const report: Awaited<ReturnType<typeof soak>>[] = [];
  try {
    process.stdout.write(
      `Event-loop delay under the mixed soak: ${SECONDS} s, ${CONNECTIONS} connections per scenario, roadmap of ${ROADMAP.toLocaleString('en-US')}${SMALL ? ', no log groups (small)' : `, ${BENCH_LOG_GROUPS.toLocaleString('en-US')} log groups`}\n`,
    );
    for (const db of databasesOf(mode)) {
      const run = await soak(db, work);
      report.push(run);
      process.stdout.write(
        `  [${DB_LABEL[db]}] event-loop delay, quiet: p99 ${run.quiet.p99Ms} ms; under the mix: p50 ${run.loaded.p50Ms} ms, ` +
          `p99 ${run.loaded.p99Ms} ms (bound ${BOUND_MS}: ${run.loaded.p99Ms <= BOUND_MS ? 'met' : 'NOT met'}), max ${run.loaded.maxMs} ms\n`,
      );
      for (const { id, result } of run.results)
        process.stdout.write(
          `    ${id}: ${Math.round(result.requestsPerSecond)} req/s, p99 ${result.latencyMs.p99} ms, errors ${errorsOf(result.errors)}\n`,
        );
    }
    mkdirSync(RESULTS_DIR, { recursive: true });
    const file = join(RESULTS_DIR, `loop-delay${mode === 'sqlite' ? '' : `-${mode}`}.json`);
    writeFileSync(
      file,
      `${JSON.stringify({ date: new Date().toISOString(), seconds: SECONDS, connections: CONNECTIONS, roadmap: ROADMAP, logGroups: !SMALL, runs: report }, null, 2)}\n`,
    );
    process.stdout.write(`Wrote ${file}\n`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`loop-delay failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
