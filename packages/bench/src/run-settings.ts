/**
 * `npm run bench`'s settings, read once from the environment and the command line (run.ts's
 * header lists them), and what they choose: the databases, the cores, the scenarios to seed for.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { databasesOf, dbModeOf } from './databases.ts';
import {
  boardSizeScenarioIds,
  inboxScenarioIds,
  LOG_GROUP_SCENARIO_IDS,
  releasePageScenarioId,
  roadmapScenarioId,
} from './scenario-ids.ts';
import { BENCH_RELEASE_SESSIONS, BENCH_ROADMAP_SIZES, type SeedOptions } from './seed.ts';

export const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
// The server as production runs it: built, through its bin (the bench script builds it first).
export const SERVER_MAIN =
  process.env['BENCH_SERVER_MAIN'] ?? fileURLToPath(new URL('../../server/bin/signpost-server.js', import.meta.url));
export const CEILING_MAIN = fileURLToPath(new URL('./ceiling.ts', import.meta.url));
export const RESULTS_DIR = process.env['BENCH_RESULTS_DIR'] ?? join(PACKAGE_DIR, 'results');

export const env = process.env;
const number = (name: string, fallback: number, min = 1) => {
  const value = Number(env[name]);
  return env[name] !== undefined && env[name] !== '' && Number.isFinite(value) && value >= min ? value : fallback;
};
export const SECONDS = number('BENCH_SECONDS', 2);
export const WARMUP = number('BENCH_WARMUP', 2, 0);
export const CEILING_SECONDS = number('BENCH_CEILING_SECONDS', 1);
export const ROUNDS = Math.trunc(number('BENCH_ROUNDS', 9));
export const CONNECTIONS = number('BENCH_CONNECTIONS', 32);
/** How long the server rests after the last scenario before its memory is read again (0: not read). */
export const REST_SECONDS = number('BENCH_REST_SECONDS', 60, 0);
export const ONLY = env['BENCH_ONLY'] ? new Set(env['BENCH_ONLY'].split(',').map((s) => s.trim())) : undefined;
export const PROFILE = env['BENCH_PROFILE'] === '1';
export { SERVER_NODE_ARGS } from './processes.ts';
export const DB_MODE = (() => {
  try {
    return dbModeOf(process.argv.slice(2), env);
  } catch (error) {
    process.stderr.write(`bench: ${(error as Error).message}\n`);
    return process.exit(2);
  }
})();
export const DATABASES = databasesOf(DB_MODE);
export { SERVER_CORE, WRK_CORE } from './processes.ts';

export const wanted = (id: string) => !ONLY || ONLY.has(id);
/** Seed only the expensive parts a selection measures (100,000 log groups, 100,000 roadmap items). */
export const SEED_OPTIONS: SeedOptions = {
  logGroups: LOG_GROUP_SCENARIO_IDS.some(wanted),
  roadmapSizes: BENCH_ROADMAP_SIZES.filter(
    (size) =>
      wanted(roadmapScenarioId(size)) || inboxScenarioIds(size).some(wanted) || boardSizeScenarioIds(size).some(wanted),
  ),
  releaseSessions: BENCH_RELEASE_SESSIONS.filter((sessions) => wanted(releasePageScenarioId(sessions))),
};
