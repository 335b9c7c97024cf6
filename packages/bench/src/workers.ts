/**
 * `WORKERS=1` against `WORKERS=2` (issue 37): the CPU one request costs with one server process
 * and with two, on the same core. Both runs pin every server process to core 0 and wrk to core
 * 1, so the second process adds no cores: what is measured is the price of running two (their
 * own event loops, caches and connections), which the issue bounds at 1.1× of one. Throughput is
 * printed too; on a machine with more cores, unpinned, two processes serve about twice as much.
 *
 *   npm run workers -w @signpost/bench                 # SQLite; --db postgres | both
 *   BENCH_SECONDS (10), BENCH_ROUNDS (5), BENCH_WARMUP_SECONDS (10): rounds alternate 1, 2, 1, 2 …
 *   so drift hits both; rates and CPU are the medians of their rounds, the ratio the median of
 *   each round's pair (two processes' CPU per request over one's, run one after the other).
 *
 * CPU is read from /proc (utime + stime of the primary and all its workers), so Linux only.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DB_LABEL, databasesOf, dbModeOf, prepareDatabase } from './databases.ts';
import { startProcess, stopProcess } from './processes.ts';
import { median } from './stats.ts';
import { runWrk, type WrkRequest } from './wrk.ts';

const SERVER_MAIN =
  process.env['BENCH_SERVER_MAIN'] ?? fileURLToPath(new URL('../../server/bin/signpost-server.js', import.meta.url));
const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 10);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 5);
// Each process compiles its hot paths on its own: with two, a short warm-up leaves both half
// optimised, and the measured window would charge that one-time compiling to every request.
const WARMUP_SECONDS = Number(process.env['BENCH_WARMUP_SECONDS'] ?? 10);
const DEMO_KEY = 'svc_live_demo_signpostpublicdemokey0001';
const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** CPU seconds used so far by `pid` and every process below it. */
function treeCpuSeconds(pid: number): number {
  const stats = new Map<number, { parent: number; ticks: number }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // After the name: state(0) ppid(1) … utime(11) stime(12)
      stats.set(Number(entry), { parent: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) });
    } catch {}
  }
  let ticks = 0;
  const visit = (id: number) => {
    ticks += stats.get(id)?.ticks ?? 0;
    for (const [child, stat] of stats) if (stat.parent === id) visit(child);
  };
  visit(pid);
  return ticks / TICKS_PER_SECOND;
}

const features: WrkRequest = { path: '/api/public/v1/features', headers: { 'x-api-key': DEMO_KEY } };

async function measure(workers: number, dataDir: string, databaseUrl: string, scriptDir: string) {
  const server = await startProcess(
    SERVER_MAIN,
    {
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      NODE_ENV: 'production',
      WORKERS: String(workers),
    },
    /running on (?:SQLite|PostgreSQL) at http:\/\/localhost:(\d+)/,
  );
  try {
    const origin = `http://127.0.0.1:${server.port}`;
    const options = { seconds: SECONDS, connections: 32, threads: 2, core: 1, scriptDir };
    // Every worker warm (connections spread over them), then measured.
    await runWrk(origin, features, { ...options, seconds: WARMUP_SECONDS });
    const before = treeCpuSeconds(server.child.pid!);
    const result = await runWrk(origin, features, options);
    const cpu = treeCpuSeconds(server.child.pid!) - before;
    return { requestsPerSecond: result.requestsPerSecond, cpuMsPerRequest: (cpu * 1000) / result.requests };
  } finally {
    await stopProcess(server.child);
  }
}

async function main() {
  const work = mkdtempSync(join(tmpdir(), 'signpost-bench-workers-'));
  const scriptDir = join(work, 'wrk');
  mkdirSync(scriptDir);
  try {
    process.stdout.write(
      '| Database | Workers | req/s | CPU per request | CPU / one process |\n|---|---|---|---|---|\n',
    );
    for (const db of databasesOf(dbModeOf(process.argv.slice(2), process.env))) {
      const dataDir = join(work, db);
      mkdirSync(dataDir);
      const database = await prepareDatabase(db, dataDir, '_workers');
      try {
        const runs: Record<1 | 2, Array<{ requestsPerSecond: number; cpuMsPerRequest: number }>> = { 1: [], 2: [] };
        for (let round = 0; round < ROUNDS; round++)
          for (const workers of [1, 2] as const)
            runs[workers].push(await measure(workers, dataDir, database.databaseUrl, scriptDir));
        // Each round's two runs are a pair (one after the other, on the machine as it was then):
        // the ratio is the median of the pairs' ratios, so a slow minute moves one pair, not the figure.
        const ratios = runs[2].map((two, round) => two.cpuMsPerRequest / runs[1][round]!.cpuMsPerRequest);
        for (const workers of [1, 2] as const) {
          const cpu = median(runs[workers].map((r) => r.cpuMsPerRequest));
          const rate = median(runs[workers].map((r) => r.requestsPerSecond));
          const ratio =
            workers === 1
              ? '1.00×'
              : `${median(ratios).toFixed(2)}× (pairs ${ratios.map((r) => r.toFixed(2)).join(', ')})`;
          process.stdout.write(
            `| ${DB_LABEL[db]} | ${workers} | ${Math.round(rate)} | ${(cpu * 1000).toFixed(0)} µs | ${ratio} |\n`,
          );
        }
      } finally {
        await database.drop();
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
