/**
 * `npm run bench`: starts the Signpost server on a fresh SQLite database as its own process,
 * and a bare node:http server as the ceiling, and measures both with wrk running as another
 * process. With taskset available, the servers get core 0 and wrk core 1, so the figures are
 * "one server core" figures. Each scenario is measured in rounds, each between two runs of the
 * ceiling, so load from other processes on the machine moves both sides of a round's ratio
 * alike; a scenario's figures are those of its median round. Prints a table; writes
 * results/latest.{json,md} and the results section of README.md.
 *
 * Settings (environment): BENCH_SECONDS (scenario measurement per round, default 2),
 * BENCH_CEILING_SECONDS (ceiling per round, default 1), BENCH_ROUNDS (default 9), BENCH_WARMUP
 * (default 2), BENCH_CONNECTIONS (default 32), BENCH_ONLY (comma-separated scenario ids),
 * BENCH_PROFILE=1 (run the server with --cpu-prof; profiles land in results/profiles/),
 * BENCH_NO_README=1 (leave README.md alone), BENCH_RESULTS_DIR (where results go instead of
 * results/), BENCH_SERVER_MAIN (another server entry point, e.g.
 * a patched checkout, to compare a change).
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hasTaskset, startProcess, startServer, stopProcess } from './processes.ts';
import { median } from './stats.ts';
import { API, expectStatus, fail, scenarios } from './scenarios.ts';
import { seedBenchDatabase } from './seed.ts';
import { errorsOf, runWrk, wrkVersion, type WrkRequest, type WrkResult } from './wrk.ts';

const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
const SERVER_MAIN =
  process.env['BENCH_SERVER_MAIN'] ?? fileURLToPath(new URL('../../server/src/main.ts', import.meta.url));
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
const ONLY = env['BENCH_ONLY'] ? new Set(env['BENCH_ONLY'].split(',').map((s) => s.trim())) : undefined;
const PROFILE = env['BENCH_PROFILE'] === '1';

interface Measured {
  id: string;
  label: string;
  /** The ceiling of the median round (the mean of the runs right before and after it); `ratio` is relative to it. */
  ceilingRequestsPerSecond: number;
  /** Every round: the ceiling around it, the scenario, their ratio. */
  rounds: { ceilingRequestsPerSecond: number; requestsPerSecond: number; p99LatencyMs: number; ratio: number }[];
  requestsPerSecond: number;
  entriesPerSecond?: number;
  latencyMs: WrkResult['latencyMs'];
  ratio: number | null;
  target: string;
  met: boolean | null;
  errors: WrkResult['errors'];
  requests: number;
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
  const options = { connections: CONNECTIONS, threads: 1, core: hasTaskset ? 1 : undefined, scriptDir };
  if (warmup > 0) await runWrk(origin, request, { ...options, seconds: warmup });
  return runWrk(origin, request, { ...options, seconds });
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

function table(ceiling: { requestsPerSecond: number; p99: number; runs: number }, rows: Measured[]): string {
  const lines = [
    '| Scenario | req/s | p99 latency | vs ceiling | Target | Met |',
    '|---|---:|---:|---:|---|:---:|',
    `| Ceiling: bare node:http, small JSON (median of ${ceiling.runs} runs) | ${fmt(ceiling.requestsPerSecond)} | ${ceiling.p99.toFixed(2)} ms | 100 % | | |`,
  ];
  for (const row of rows) {
    const rps =
      row.entriesPerSecond !== undefined
        ? `${fmt(row.requestsPerSecond)} (${fmt(row.entriesPerSecond)} entries/s)`
        : fmt(row.requestsPerSecond);
    const met = row.met === null ? '' : row.met ? 'yes' : '**no**';
    lines.push(
      `| ${row.label} | ${rps} | ${row.latencyMs.p99.toFixed(2)} ms | ${row.ratio === null ? '' : `${(row.ratio * 100).toFixed(1)} %`} | ${row.target} | ${met} |`,
    );
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  const wrk = wrkVersion();
  if (!wrk) fail('wrk is not installed (Debian/Ubuntu: apt-get install wrk; macOS: brew install wrk)');
  const runId = Date.now().toString(36);
  const work = mkdtempSync(join(os.tmpdir(), 'signpost-bench-'));
  const dataDir = join(work, 'data');
  const databaseUrl = `sqlite:${join(dataDir, 'signpost.db')}`;
  const scriptDir = join(work, 'wrk');
  mkdirSync(scriptDir, { recursive: true });
  const profileDir = join(RESULTS_DIR, 'profiles');
  const started = Date.now();
  const loadBefore = os.loadavg();
  const children: ChildProcess[] = [];
  const cleanUp = () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    rmSync(work, { recursive: true, force: true });
  };
  process.on('SIGINT', () => {
    cleanUp();
    process.exit(130);
  });

  try {
    process.stdout.write(
      `Signpost benchmark: ${SECONDS} s per scenario after ${WARMUP} s warm-up, ${CONNECTIONS} connections, ` +
        `${hasTaskset ? 'server on core 0, wrk on core 1' : 'no CPU pinning (taskset missing or one core)'}\n`,
    );

    // 1. The ceiling, warmed up once; measured again around every round of every scenario.
    const ceilingProcess = await startProcess(CEILING_MAIN, { PORT: '0' }, /listening (\d+)/);
    children.push(ceilingProcess.child);
    const ceilingOrigin = `http://127.0.0.1:${ceilingProcess.port}`;
    const ceilingRuns: WrkResult[] = [];
    const runCeiling = async (warmup: number) => {
      const result = await measure(ceilingOrigin, { path: '/' }, scriptDir, CEILING_SECONDS, warmup);
      ceilingRuns.push(result);
      process.stdout.write(
        `  ceiling (bare node:http): ${fmt(result.requestsPerSecond)} req/s, p99 ${result.latencyMs.p99} ms\n`,
      );
      return result;
    };
    await runCeiling(WARMUP);

    // 2. Signpost on SQLite.
    const { key, projectId, managementToken, logsProjectId } = await seedBenchDatabase(databaseUrl, dataDir);
    if (PROFILE) mkdirSync(profileDir, { recursive: true });
    const server = await startServer(
      SERVER_MAIN,
      dataDir,
      PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
    );
    children.push(server.child);
    const origin = `http://127.0.0.1:${server.port}`;

    const first = await fetch(`${origin}${API}/translations?locale=de`, { headers: { 'x-api-key': key } });
    const hash = ((await expectStatus(first, 200, 'GET /translations')) as { hash: string }).hash;

    const rows: Measured[] = [];
    const manage = managementToken && logsProjectId ? { token: managementToken, logsProjectId } : undefined;
    for (const scenario of scenarios(key, projectId, runId, hash, manage)) {
      if (ONLY && !ONLY.has(scenario.id)) continue;
      await scenario.check(origin);
      if (WARMUP > 0) await measure(origin, scenario.request, scriptDir, WARMUP, 0);
      // Each measurement of the scenario sits between two of the ceiling, and its ratio is to
      // their mean: the machine's speed drifts within seconds here, and a drift during the round
      // then moves both sides alike.
      const rounds: { ceilingRequestsPerSecond: number; result: WrkResult; ratio: number }[] = [];
      let before = await runCeiling(0);
      for (let round = 0; round < ROUNDS; round++) {
        const resultRound = await measure(origin, scenario.request, scriptDir, SECONDS, 0);
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
      const { ceilingRequestsPerSecond, result, ratio } = [...rounds].sort((a, b) => a.ratio - b.ratio)[
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
      }
      if (errorsOf(failures) > 0 || noResponse) met = false;
      rows.push({
        id: scenario.id,
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
      });
      process.stdout.write(
        `  ${scenario.label}: ${fmt(result.requestsPerSecond)} req/s` +
          (entriesPerSecond !== undefined ? ` = ${fmt(entriesPerSecond)} entries/s` : '') +
          `, p99 ${result.latencyMs.p99} ms, ${(ratio * 100).toFixed(1)} % of ceiling (median of ${rounds.map((r) => `${(r.ratio * 100).toFixed(1)}`).join(', ')} %)` +
          (errorsOf(failures) > 0 ? `, ERRORS ${JSON.stringify(failures)}` : '') +
          (noResponse ? ' (NO RESPONSE COMPLETED: see README, "Reading the numbers")' : '') +
          '\n',
      );
    }
    await stopProcess(server.child);
    await stopProcess(ceilingProcess.child);
    const ceiling = {
      requestsPerSecond: median(ceilingRuns.map((run) => run.requestsPerSecond)),
      p99: median(ceilingRuns.map((run) => run.latencyMs.p99)),
      runs: ceilingRuns.length,
    };

    // 3. Results.
    const cpus = os.cpus();
    const machine = {
      cpus: cpus.length,
      cpuModel: cpus[0]?.model ?? 'unknown',
      memoryGiB: Math.round(os.totalmem() / 2 ** 30),
      os: `${os.type()} ${os.release()} ${os.arch()}`,
      node: process.version,
      sqlite: process.versions.sqlite ?? 'unknown',
      wrk,
      pinned: hasTaskset,
      loadAverageBefore: loadBefore.map((n) => Math.round(n * 100) / 100),
    };
    const report = {
      date: new Date().toISOString(),
      machine,
      settings: {
        seconds: SECONDS,
        rounds: ROUNDS,
        warmupSeconds: WARMUP,
        ceilingSeconds: CEILING_SECONDS,
        connections: CONNECTIONS,
        wrkThreads: 1,
      },
      ceiling: {
        requestsPerSecond: ceiling.requestsPerSecond,
        p99LatencyMs: ceiling.p99,
        runs: ceilingRuns.map((run) => ({
          requestsPerSecond: run.requestsPerSecond,
          latencyMs: run.latencyMs,
          errors: run.errors,
        })),
      },
      results: rows,
      totalSeconds: Math.round((Date.now() - started) / 1000),
    };
    const markdown = [
      `Measured ${report.date.slice(0, 16).replace('T', ' ')} UTC on ${machine.cpus} × ${machine.cpuModel}, ${machine.memoryGiB} GiB, ${machine.os}; ` +
        `Node ${machine.node}, SQLite ${machine.sqlite}, ${machine.wrk.replace(/ Copyright.*/, '')}. ` +
        `${machine.pinned ? 'Server pinned to core 0, wrk to core 1' : 'No CPU pinning'}; ${CONNECTIONS} connections, ` +
        `each scenario warmed up for ${WARMUP} s, then measured in ${ROUNDS} rounds of ${SECONDS} s, each between two ${CEILING_SECONDS} s runs ` +
        `of the ceiling; each row is the scenario's median round by its ratio to the mean of the two ceiling runs around it. ` +
        `Load average before the run: ${machine.loadAverageBefore.join(', ')}.`,
      '',
      table(ceiling, rows),
      '',
    ].join('\n');
    // A subset run (BENCH_ONLY) goes to results/subset.*; the full run is the one recorded.
    const name = ONLY ? 'subset' : 'latest';
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
      `\n${table(ceiling, rows)}\n\nWrote ${join(RESULTS_DIR, `${name}.json`)} and ${name}.md (${report.totalSeconds} s).\n`,
    );
    if (PROFILE) process.stdout.write(`CPU profiles of the server: ${profileDir}\n`);
  } finally {
    cleanUp();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
