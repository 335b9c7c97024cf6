/**
 * `npm run compare -- <server main A> <server main B> [scenario,…]`: compares two versions of the
 * server (e.g. the main.ts of a checkout of the commit before a change, and of the working tree).
 *
 * Each runs on its own fresh database, seeded and migrated by its own checkout (so a change to the
 * schema compares too), both pinned to core 0 and loaded at the same time, each by its own wrk on
 * core 1. Sharing the core, they get about equal CPU time, so
 * the ratio of their requests per second is the inverse ratio of their CPU cost per request, and
 * whatever else the host does meanwhile slows both alike: on the machines here this ratio holds
 * within a few per cent where the round-based `npm run bench` swings by tens. For a write
 * scenario, time one server spends waiting for the disk is CPU time for the other, so there the
 * ratio tells CPU cost, not throughput.
 *
 * Settings: COMPARE_SECONDS (each pair, default 5), COMPARE_PAIRS (default 5), COMPARE_DB (the
 * database of both servers, `sqlite` by default or `postgres`, or of A and B: `sqlite:postgres`
 * compares one server's cost per request on either; PostgreSQL's backends are pinned to core 0
 * with the servers before every pair).
 * Scenarios: the ids of `npm run bench` (default translations-304; the log explorer's `logs-list…` and
 * `logs-histogram` seed 100,000 log groups in each database first). `a:b` loads A with scenario
 * `a` and B with `b`: with the same server main twice, B/A is then the inverse ratio of the two
 * scenarios' costs (e.g. `features:features-metered`, what metering costs a read).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type BenchDb, pinBackends, prepareDatabase, type PreparedDatabase } from './databases.ts';
import { hasTaskset, startServer, stopProcess } from './processes.ts';
import { LOG_GROUP_SCENARIO_IDS, releasePageScenarioId } from './scenario-ids.ts';
import { BenchFailure, fail } from './scenario-kit.ts';
import { managementOf, scenarios, serverValuesOf } from './scenarios.ts';
import { BENCH_RELEASE_SESSIONS, seedBenchDatabase, type BenchData } from './seed.ts';
import { median } from './stats.ts';
import { errorsOf, runWrk, wrkVersion } from './wrk.ts';

const [mainA, mainB, only = 'translations-304'] = process.argv.slice(2);
const SECONDS = Number(process.env['COMPARE_SECONDS'] ?? 5);
const PAIRS = Number(process.env['COMPARE_PAIRS'] ?? 5);
const DBS = (() => {
  const [a = 'sqlite', b = a] = (process.env['COMPARE_DB'] ?? 'sqlite').split(':');
  for (const db of [a, b])
    if (db !== 'sqlite' && db !== 'postgres') fail(`COMPARE_DB: ${db} is not sqlite or postgres`);
  return [a, b] as BenchDb[];
})();

async function main(): Promise<void> {
  if (!mainA || !mainB) fail('usage: npm run compare -- <server main A> <server main B> [scenario,…]');
  if (!wrkVersion()) fail('wrk is not installed (Debian/Ubuntu: apt-get install wrk; macOS: brew install wrk)');
  if (!hasTaskset) fail('comparing needs taskset and two cores: both servers share core 0, their wrk runs on core 1');
  const work = mkdtempSync(join(os.tmpdir(), 'signpost-compare-'));
  try {
    const mains = [resolve(mainA), resolve(mainB)];
    const databases: PreparedDatabase[] = [];
    for (const [i, db] of DBS.entries()) databases.push(await prepareDatabase(db, join(work, String(i)), `_${i}`));
    // The log explorer's scenarios (management and MCP reads, off the event loop on SQLite) need the 100,000 log groups.
    const logGroups = only.split(/[,:]/).some((id) => LOG_GROUP_SCENARIO_IDS.includes(id));
    const data = await Promise.all(
      mains.map((main, i) => seedWith(main, databases[i]!.databaseUrl, join(work, String(i)), logGroups)),
    );
    for (const database of databases) await database.settle();
    const servers = await Promise.all(
      mains.map((main, i) => startServer(main, join(work, String(i)), databases[i]!.databaseUrl)),
    );
    /** PostgreSQL's backends on the servers' core (the pool opens them as load needs them). */
    const pin = () => Promise.all(databases.map((database) => database.name && pinBackends(database.name, 0)));
    try {
      const origins = servers.map((server) => `http://127.0.0.1:${server.port}`);
      const pairs = only.split(',').map((spec) => {
        const [a, b = a] = spec.split(':') as [string, string?];
        return [a, b] as const;
      });
      const runId = Date.now().toString(36);
      // Per server: its own key, and the hash of its own `de` translations.
      const perServer = await Promise.all(
        origins.map(async (origin, i) => {
          const { key, projectId, meteredKey, ingestNumber } = data[i]!;
          const { hash, ofrepEtag } = await serverValuesOf(origin, key);
          const manage = managementOf(data[i]!);
          const all = scenarios(key, projectId, runId, hash, manage, {
            meteredKey,
            ingestNumber,
            releaseSessions: releaseSessionsAsked(),
            ...(ofrepEtag ? { ofrepEtag } : {}),
          });
          return pairs.map((pair) => {
            const scenario = all.find(({ id }) => id === pair[i]);
            if (!scenario) fail(`no scenario named ${pair[i]}`);
            return scenario;
          });
        }),
      );
      const chosen = perServer[0]!;
      const options = { connections: 32, threads: 1, core: 1, scriptDir: work };
      const both = (seconds: number, index: number) =>
        Promise.all(origins.map((origin, i) => runWrk(origin, perServer[i]![index]!.request, { ...options, seconds })));
      for (const [index, first] of chosen.entries()) {
        const other = perServer[1]![index]!;
        const scenario =
          other.id === first.id ? first : { ...first, label: `${first.label} (A) against ${other.label} (B)` };
        for (const [i, origin] of origins.entries()) await perServer[i]![index]!.check(origin);
        await both(2, index);
        const ratios: number[] = [];
        for (let pair = 0; pair < PAIRS; pair++) {
          await pin();
          const [a, b] = await both(SECONDS, index);
          const failures = errorsOf(a!.errors) + errorsOf(b!.errors) > 0;
          ratios.push(b!.requestsPerSecond / a!.requestsPerSecond);
          process.stdout.write(
            `  ${scenario.label}: A ${Math.round(a!.requestsPerSecond)} req/s, B ${Math.round(b!.requestsPerSecond)} req/s, B/A ${ratios.at(-1)!.toFixed(3)}` +
              (failures ? ' (ERRORS: see wrk)' : '') +
              '\n',
          );
        }
        const sorted = [...ratios].sort((x, y) => x - y);
        process.stdout.write(
          `${scenario.label}: B/A median ${median(ratios).toFixed(3)} over ${PAIRS} pairs (${sorted.map((r) => r.toFixed(3)).join(', ')})\n`,
        );
      }
    } finally {
      await Promise.all(servers.map((server) => stopProcess(server.child)));
      for (const database of databases) await database.drop();
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The release page's sizes whose scenarios are compared (`release-page-1k`, …). */
function releaseSessionsAsked(): number[] {
  const asked = new Set(only.split(',').flatMap((pair) => pair.split(':')));
  return BENCH_RELEASE_SESSIONS.filter((sessions) => asked.has(releasePageScenarioId(sessions)));
}

/**
 * Seeds a database with the bench seed of the checkout `main` belongs to, when it has one (its
 * migrations and stores match its server), else with this one's.
 */
async function seedWith(main: string, databaseUrl: string, dataDir: string, logGroups: boolean): Promise<BenchData> {
  const theirs = join(dirname(main), '..', '..', 'bench', 'src', 'seed.ts');
  const seed = existsSync(theirs)
    ? ((await import(pathToFileURL(theirs).href)) as { seedBenchDatabase: typeof seedBenchDatabase }).seedBenchDatabase
    : seedBenchDatabase;
  // Only what compare's scenarios read (no roadmaps; the log explorer's groups when one of its
  // scenarios is asked for, the release page's projects when one of its scenarios is).
  return seed(databaseUrl, dataDir, { logGroups, roadmapSizes: [], releaseSessions: releaseSessionsAsked() });
}

main().catch((error: unknown) => {
  const text = error instanceof BenchFailure ? error.message : error instanceof Error ? error.stack : String(error);
  process.stderr.write(`compare failed: ${text}\n`);
  process.exit(1);
});
