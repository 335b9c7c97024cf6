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
 * a patched checkout, to compare a change), BENCH_SERVER_NODE_ARGS (Node flags added to the server's,
 * e.g. `--heapsnapshot-signal=SIGUSR2`), BENCH_PG_URL (the PostgreSQL server's maintenance
 * database, default postgres://postgres@127.0.0.1:5432/postgres), BENCH_SMOKE=1 (the large data sets at
 * a fiftieth of their size, for the bench's own test: its figures measure nothing; see seed.ts).
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { DB_LABEL, pinBackends, type PreparedDatabase, prepareDatabase } from './databases.ts';
import { type Memory, memoryOf, restingMemory } from './memory.ts';
import { hasTaskset, startProcess, startServer, stopProcess } from './processes.ts';
import { writeResults, type DbRun, mib, peakMib } from './run-report.ts';
import { ceilingOf, fmt, judgeRelative, type Measured, measure, measureScenario } from './run-rounds.ts';
import {
  CEILING_MAIN,
  CEILING_SECONDS,
  CONNECTIONS,
  DATABASES,
  PROFILE,
  REST_SECONDS,
  RESULTS_DIR,
  SECONDS,
  SEED_OPTIONS,
  SERVER_CORE,
  SERVER_MAIN,
  SERVER_NODE_ARGS,
  WARMUP,
  WRK_CORE,
  wanted,
} from './run-settings.ts';
import { BenchFailure, fail } from './scenario-kit.ts';
import { managementOf, scenarios, serverValuesOf } from './scenarios.ts';
import { seedBenchDatabase } from './seed.ts';
import { type WrkResult, wrkVersion } from './wrk.ts';

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
      const server = await startServer(SERVER_MAIN, dataDir, database.databaseUrl, [
        ...(PROFILE ? ['--cpu-prof', '--cpu-prof-interval=100', `--cpu-prof-dir=${profileDir}`] : []),
        ...SERVER_NODE_ARGS,
      ]);
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
      const manage = managementOf(data);
      const chosen = scenarios(data.key, data.projectId, runId, hash, manage, {
        meteredKey: data.meteredKey,
        ingestNumber: data.ingestNumber,
        roadmapKeys: data.roadmapKeys,
        releaseSessions: SEED_OPTIONS.releaseSessions ?? [],
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
        const resting = await restingMemory(server.child.pid, REST_SECONDS);
        rested = resting.rested;
        const timeline = resting.timeline
          .map((reading) => `${reading.second} s ${reading.rssMiB} (${reading.threads} threads)`)
          .join(', ');
        process.stdout.write(
          `  [${DB_LABEL[db]}] server RSS after ${REST_SECONDS} s at rest: ${mib(rested)} (MiB along the way: ${timeline})\n`,
        );
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
    writeResults(runs, started, loadBefore, wrk);
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
