/**
 * `npm run bench`: starts the Signpost server on a fresh SQLite database as its own process,
 * and a bare node:http server as the ceiling, and measures both with wrk running as another
 * process. With taskset available, the servers get core 0 and wrk core 1, so the figures are
 * "one server core" figures. Each scenario is measured in rounds, each round the ceiling and then
 * the scenario, so load from other processes on the machine moves both sides of a round's ratio
 * alike; a scenario's figures are those of its median round. Prints a table; writes
 * results/latest.{json,md} and the results section of README.md.
 *
 * Settings (environment): BENCH_SECONDS (scenario measurement per round, default 4),
 * BENCH_CEILING_SECONDS (ceiling per round, default 3), BENCH_ROUNDS (default 3), BENCH_WARMUP
 * (default 2), BENCH_CONNECTIONS (default 32), BENCH_ONLY (comma-separated scenario ids),
 * BENCH_PROFILE=1 (run the server with --cpu-prof; profiles land in results/profiles/),
 * BENCH_NO_README=1 (leave README.md alone), BENCH_SERVER_MAIN (another server entry point, e.g.
 * a patched checkout, to compare a change).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { seedBenchDatabase } from './seed.ts';
import { runWrk, wrkVersion, type WrkRequest, type WrkResult } from './wrk.ts';

const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
const SERVER_MAIN = process.env['BENCH_SERVER_MAIN'] ?? fileURLToPath(new URL('../../server/src/main.ts', import.meta.url));
const CEILING_MAIN = fileURLToPath(new URL('./ceiling.ts', import.meta.url));
const RESULTS_DIR = join(PACKAGE_DIR, 'results');
const API = '/api/public/v1';

const env = process.env;
const number = (name: string, fallback: number) => {
  const value = Number(env[name]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
};
const SECONDS = number('BENCH_SECONDS', 4);
const WARMUP = number('BENCH_WARMUP', 2);
const CEILING_SECONDS = number('BENCH_CEILING_SECONDS', 3);
const ROUNDS = Math.trunc(number('BENCH_ROUNDS', 3));
const CONNECTIONS = number('BENCH_CONNECTIONS', 32);
const ONLY = env['BENCH_ONLY'] ? new Set(env['BENCH_ONLY'].split(',').map((s) => s.trim())) : undefined;
const PROFILE = env['BENCH_PROFILE'] === '1';

interface Scenario {
  id: string;
  label: string;
  request: WrkRequest;
  /** What the issue asks of it: a share of the ceiling, or log entries per second. */
  target?: { ratio: number } | { entriesPerSecond: number };
  entriesPerRequest?: number;
  /** Checks one request by hand before the run: right status, right shape. */
  check: (origin: string) => Promise<void>;
}

interface Measured {
  id: string;
  label: string;
  /** The ceiling measured right before the median round; `ratio` is relative to it. */
  ceilingRequestsPerSecond: number;
  /** Every round: the ceiling right before, the scenario, their ratio. */
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

function fail(message: string): never {
  process.stderr.write(`bench: ${message}\n`);
  process.exit(1);
}

async function expectStatus(response: Response, status: number, what: string): Promise<unknown> {
  const text = await response.text();
  if (response.status !== status) fail(`${what}: expected ${status}, got ${response.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : undefined;
}

const hasTaskset = !spawnSync('taskset', ['-c', '0', 'true']).error && os.cpus().length >= 2;

/** Starts a Node process pinned to core 0 (when possible) and waits for `ready` in its output. */
async function startProcess(
  script: string,
  extraEnv: Record<string, string>,
  ready: RegExp,
  nodeArgs: string[] = [],
): Promise<{ child: ChildProcess; port: number; output: () => string }> {
  const args = [...nodeArgs, script];
  const [command, argv] = hasTaskset ? ['taskset', ['-c', '0', process.execPath, ...args]] : [process.execPath, args];
  const childEnv: Record<string, string | undefined> = { ...env, ...extraEnv };
  const child = spawn(command, argv, { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script} did not start:\n${output}`)), 60_000);
    const check = () => {
      const match = ready.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited with ${code}:\n${output}`));
    });
  });
  return { child, port, output: () => output };
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

function scenarios(key: string, projectId: string, runId: string, translationsHash: string): Scenario[] {
  const json = { 'Content-Type': 'application/json', 'X-API-Key': key };
  const errorBody = (title: string) =>
    JSON.stringify({
      title,
      message: "TypeError: Cannot read properties of undefined (reading 'total') in checkout",
      errorType: 'TypeError',
      severity: 'high',
      stackTrace: 'TypeError: Cannot read properties of undefined\n    at total (checkout.js:10:5)\n    at submit (checkout.js:42:3)',
      url: 'https://app.example.com/checkout',
      app: { version: '1.4.2', environment: 'production' },
      device: { browser: 'Firefox', os: 'Linux' },
    });
  const uniqueError = errorBody(`Bench error ${runId} #XXX`).split('XXX');
  // 100 distinct lines, as a logger's batch of a few seconds would be. `batch` goes into every
  // message: empty, every request upserts the same 100 log groups (after the first request, each
  // upsert counts a repeat on an existing row); numbered per request, all 100 lines are new.
  const logBatchOf = (batch: string) =>
    JSON.stringify({
      logs: Array.from({ length: 100 }, (_, i) => ({
        level: ['info', 'warn', 'error', 'debug'][i % 4],
        category: `module-${i % 10}`,
        message: `Request ${i}${batch} handled: GET /api/items/${i} answered in ${10 + i} ms`,
        data: { route: `/api/items/${i}`, ms: 10 + i },
        appVersion: '1.4.2',
      })),
    });
  const logBatch = logBatchOf('');
  const distinctLogParts = logBatchOf(' of batch XXX').split('XXX');
  const checkLogs = async (origin: string, body: string, what: string) => {
    const answer = (await expectStatus(await fetch(`${origin}${API}/logs`, { method: 'POST', headers: json, body }), 200, what)) as { accepted: number };
    if (answer.accepted !== 100) fail(`${what} accepted ${answer.accepted}, expected 100`);
  };
  return [
    {
      id: 'features',
      label: 'GET /features (50 items)',
      request: { path: `${API}/features`, headers: { 'X-API-Key': key } },
      target: { ratio: 0.35 },
      check: async (origin) => {
        const body = (await expectStatus(await fetch(`${origin}${API}/features`, { headers: { 'x-api-key': key } }), 200, 'GET /features')) as {
          features: unknown[];
        };
        if (body.features.length !== 50) fail(`GET /features returned ${body.features.length} items, expected 50`);
      },
    },
    {
      id: 'site-config',
      label: 'GET /site-config',
      request: { path: `${API}/site-config?projectId=${projectId}` },
      target: { ratio: 0.7 },
      check: async (origin) => void (await expectStatus(await fetch(`${origin}${API}/site-config?projectId=${projectId}`), 200, 'GET /site-config')),
    },
    {
      id: 'translations-304',
      label: 'GET /translations → 304',
      request: { path: `${API}/translations?locale=de`, headers: { 'X-API-Key': key, 'If-None-Match': `"${translationsHash}"` } },
      target: { ratio: 0.7 },
      check: async (origin) => {
        const headers = { 'x-api-key': key, 'if-none-match': `"${translationsHash}"` };
        await expectStatus(await fetch(`${origin}${API}/translations?locale=de`, { headers }), 304, 'GET /translations with If-None-Match');
      },
    },
    {
      id: 'errors-new',
      label: 'POST /errors (new)',
      request: { method: 'POST', path: `${API}/errors`, headers: json, uniqueBody: { parts: uniqueError } },
      target: { ratio: 0.2 },
      check: async (origin) => {
        const body = { method: 'POST', headers: json, body: errorBody(`Bench error ${runId} check`) };
        await expectStatus(await fetch(`${origin}${API}/errors`, body), 201, 'POST /errors (new)');
      },
    },
    {
      id: 'errors-duplicate',
      label: 'POST /errors (duplicate)',
      request: { method: 'POST', path: `${API}/errors`, headers: json, body: errorBody(`Bench error ${runId} repeated`) },
      target: { ratio: 0.2 },
      check: async (origin) => {
        const body = { method: 'POST', headers: json, body: errorBody(`Bench error ${runId} repeated`) };
        await expectStatus(await fetch(`${origin}${API}/errors`, body), 201, 'POST /errors (first of the duplicates)');
        const again = (await expectStatus(await fetch(`${origin}${API}/errors`, body), 200, 'POST /errors (duplicate)')) as { duplicate: boolean };
        if (again.duplicate !== true) fail('POST /errors (duplicate) did not answer duplicate: true');
      },
    },
    {
      id: 'logs',
      label: 'POST /logs (100 entries, same batch each time)',
      request: { method: 'POST', path: `${API}/logs`, headers: json, body: logBatch },
      entriesPerRequest: 100,
      target: { entriesPerSecond: 150_000 },
      check: (origin) => checkLogs(origin, logBatch, 'POST /logs'),
    },
    {
      id: 'logs-distinct',
      label: 'POST /logs (100 entries, all new)',
      request: { method: 'POST', path: `${API}/logs`, headers: json, uniqueBody: { parts: distinctLogParts } },
      entriesPerRequest: 100,
      target: { entriesPerSecond: 150_000 },
      check: (origin) => checkLogs(origin, distinctLogParts.join('check'), 'POST /logs (all new)'),
    },
  ];
}

const errorsOf = (errors: WrkResult['errors']) => Object.values(errors).reduce((a, b) => a + b, 0);
const sumErrors = (results: WrkResult[]): WrkResult['errors'] => {
  const total = { connect: 0, read: 0, write: 0, status: 0, timeout: 0 };
  for (const { errors } of results) for (const name of Object.keys(total) as (keyof typeof total)[]) total[name] += errors[name];
  return total;
};

async function measure(origin: string, request: WrkRequest, scriptDir: string, seconds = SECONDS, warmup = WARMUP): Promise<WrkResult> {
  const options = { connections: CONNECTIONS, threads: 1, core: hasTaskset ? 1 : undefined, scriptDir };
  if (warmup > 0) await runWrk(origin, request, { ...options, seconds: warmup });
  return runWrk(origin, request, { ...options, seconds });
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

function table(ceiling: { requestsPerSecond: number; p99: number; runs: number }, rows: Measured[]): string {
  const lines = [
    '| Scenario | req/s | p99 latency | vs ceiling | Target | Met |',
    '|---|---:|---:|---:|---|:---:|',
    `| Ceiling: bare node:http, small JSON (median of ${ceiling.runs} runs) | ${fmt(ceiling.requestsPerSecond)} | ${ceiling.p99.toFixed(2)} ms | 100 % | | |`,
  ];
  for (const row of rows) {
    const rps = row.entriesPerSecond !== undefined ? `${fmt(row.requestsPerSecond)} (${fmt(row.entriesPerSecond)} entries/s)` : fmt(row.requestsPerSecond);
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

    // 1. The ceiling, warmed up once; measured again before every scenario.
    const ceilingProcess = await startProcess(CEILING_MAIN, { PORT: '0' }, /listening (\d+)/);
    children.push(ceilingProcess.child);
    const ceilingOrigin = `http://127.0.0.1:${ceilingProcess.port}`;
    const ceilingRuns: WrkResult[] = [];
    const runCeiling = async (warmup: number) => {
      const result = await measure(ceilingOrigin, { path: '/' }, scriptDir, CEILING_SECONDS, warmup);
      ceilingRuns.push(result);
      process.stdout.write(`  ceiling (bare node:http): ${fmt(result.requestsPerSecond)} req/s, p99 ${result.latencyMs.p99} ms\n`);
      return result;
    };
    await runCeiling(WARMUP);

    // 2. Signpost on SQLite.
    const { key, projectId } = await seedBenchDatabase(databaseUrl, dataDir);
    if (PROFILE) mkdirSync(profileDir, { recursive: true });
    const server = await startProcess(
      SERVER_MAIN,
      { PORT: '0', HOST: '127.0.0.1', DATABASE_URL: databaseUrl, DATA_DIR: dataDir, LOG_LEVEL: 'silent', NODE_ENV: 'production' },
      /running on SQLite at http:\/\/localhost:(\d+)/,
      PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
    );
    children.push(server.child);
    const origin = `http://127.0.0.1:${server.port}`;

    const first = await fetch(`${origin}${API}/translations?locale=de`, { headers: { 'x-api-key': key } });
    const hash = ((await expectStatus(first, 200, 'GET /translations')) as { hash: string }).hash;

    const rows: Measured[] = [];
    for (const scenario of scenarios(key, projectId, runId, hash)) {
      if (ONLY && !ONLY.has(scenario.id)) continue;
      await scenario.check(origin);
      await measure(origin, scenario.request, scriptDir, WARMUP, 0);
      const rounds: { ceiling: WrkResult; result: WrkResult; ratio: number }[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const ceilingRound = await runCeiling(0);
        const resultRound = await measure(origin, scenario.request, scriptDir, SECONDS, 0);
        rounds.push({ ceiling: ceilingRound, result: resultRound, ratio: resultRound.requestsPerSecond / ceilingRound.requestsPerSecond });
      }
      // The median round by ratio stands for the scenario; failures in any round count.
      const { ceiling, result, ratio } = [...rounds].sort((a, b) => a.ratio - b.ratio)[Math.floor(rounds.length / 2)]!;
      const failures = sumErrors(rounds.map((r) => r.result));
      const noResponse = rounds.some((r) => r.result.requests === 0);
      const entriesPerSecond = scenario.entriesPerRequest ? result.requestsPerSecond * scenario.entriesPerRequest : undefined;
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
        ceilingRequestsPerSecond: ceiling.requestsPerSecond,
        rounds: rounds.map((r) => ({
          ceilingRequestsPerSecond: r.ceiling.requestsPerSecond,
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
      settings: { seconds: SECONDS, rounds: ROUNDS, warmupSeconds: WARMUP, ceilingSeconds: CEILING_SECONDS, connections: CONNECTIONS, wrkThreads: 1 },
      ceiling: {
        requestsPerSecond: ceiling.requestsPerSecond,
        p99LatencyMs: ceiling.p99,
        runs: ceilingRuns.map((run) => ({ requestsPerSecond: run.requestsPerSecond, latencyMs: run.latencyMs, errors: run.errors })),
      },
      results: rows,
      totalSeconds: Math.round((Date.now() - started) / 1000),
    };
    const markdown = [
      `Measured ${report.date.slice(0, 16).replace('T', ' ')} UTC on ${machine.cpus} × ${machine.cpuModel}, ${machine.memoryGiB} GiB, ${machine.os}; ` +
        `Node ${machine.node}, SQLite ${machine.sqlite}, ${machine.wrk.replace(/ Copyright.*/, '')}. ` +
        `${machine.pinned ? 'Server pinned to core 0, wrk to core 1' : 'No CPU pinning'}; ${CONNECTIONS} connections, ` +
        `each scenario warmed up for ${WARMUP} s, then measured in ${ROUNDS} rounds of ${CEILING_SECONDS} s of the ceiling followed by ` +
        `${SECONDS} s of the scenario; each row is the scenario's median round by ratio to the ceiling measured right before it. ` +
        `Load average before the run: ${machine.loadAverageBefore.join(', ')}.`,
      '',
      table(ceiling, rows),
      '',
    ].join('\n');
    // A subset run (BENCH_ONLY) goes to results/subset.*; the full run is the one recorded.
    const name = ONLY ? 'subset' : 'latest';
    mkdirSync(RESULTS_DIR, { recursive: true });
    writeFileSync(join(RESULTS_DIR, `${name}.json`), JSON.stringify(report, null, 2) + '\n');
    writeFileSync(join(RESULTS_DIR, `${name}.md`), `# ${ONLY ? 'Subset' : 'Latest'} benchmark results\n\n${markdown}`);
    if (env['BENCH_NO_README'] !== '1' && !ONLY) {
      const readmePath = join(PACKAGE_DIR, 'README.md');
      const readme = readFileSync(readmePath, 'utf8');
      const start = '<!-- results:start -->';
      const end = '<!-- results:end -->';
      const from = readme.indexOf(start);
      const to = readme.indexOf(end);
      if (from >= 0 && to > from) {
        writeFileSync(readmePath, readme.slice(0, from + start.length) + '\n' + markdown + readme.slice(to));
      }
    }
    process.stdout.write(`\n${table(ceiling, rows)}\n\nWrote ${join(RESULTS_DIR, `${name}.json`)} and ${name}.md (${report.totalSeconds} s).\n`);
    if (PROFILE) process.stdout.write(`CPU profiles of the server: ${profileDir}\n`);
  } finally {
    cleanUp();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
