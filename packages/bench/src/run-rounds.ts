/**
 * How `npm run bench` measures: wrk against a scenario in rounds, each round between two runs of
 * the ceiling so a drift of the machine's speed moves both sides of its ratio alike; a
 * scenario's figures are those of its median round, and targets relative to another scenario
 * are judged once both are measured.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { type BenchDb, DB_LABEL } from './databases.ts';
import { hasTaskset } from './processes.ts';
import { CONNECTIONS, ROUNDS, SECONDS, WARMUP, WRK_CORE } from './run-settings.ts';
import type { Scenario } from './scenario-kit.ts';
import { median } from './stats.ts';
import { errorsOf, runWrk, type WrkRequest, type WrkResult } from './wrk.ts';

export interface Measured {
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

export interface Ceiling {
  requestsPerSecond: number;
  p99: number;
  runs: number;
}

const sumErrors = (results: WrkResult[]): WrkResult['errors'] => {
  const total = { connect: 0, read: 0, write: 0, status: 0, timeout: 0 };
  for (const { errors } of results)
    for (const name of Object.keys(total) as (keyof typeof total)[]) total[name] += errors[name];
  return total;
};

export async function measure(
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

/** A whole number with thousands separators, as the progress lines and tables print rates. */
export const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

/** A scenario in rounds, each between two ceiling runs; `beforeRun` runs before every measurement. */
export async function measureScenario(
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
export function judgeRelative(rows: Measured[], chosen: Scenario[]): void {
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

export const ceilingOf = (runs: WrkResult[]): Ceiling => ({
  requestsPerSecond: median(runs.map((run) => run.requestsPerSecond)),
  p99: median(runs.map((run) => run.latencyMs.p99)),
  runs: runs.length,
});
