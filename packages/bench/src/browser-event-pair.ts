/**
 * Two builds of the server against issue 31's browser event at the same time (ninth sitting):
 * both pinned to core 0, each on its own SQLite database, each loaded by its own wrk on core 1, and
 * the CPU per request of each read from /proc over the same window. Sharing the core, whatever else
 * the machine does slows both alike, so the ratio of their CPU per request holds where the
 * sequential runs of browser-event.ts (each build between two of the floor) swing with the load
 * of other jobs. An A/A run (a build against a copy of itself) read 1.005–1.008.
 *
 *   node src/browser-event-pair.ts <bin/signpost-server.js of A> <of B> [new,repeat,distinct]
 *   PAIR_SECONDS (8), PAIR_PAIRS (5), PAIR_CONNECTIONS (16 for each build),
 *   PAIR_NODE_ARGS_A, PAIR_NODE_ARGS_B (Node flags added to one build's, e.g. `--max-semi-space-size=8`)
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Kind, cpuSeconds, request } from './browser-event.ts';
import { prepareDatabase } from './databases.ts';
import { startServer, stopProcess } from './processes.ts';
import { type BenchData, seedBenchDatabase } from './seed.ts';
import { median } from './stats.ts';
import { runWrk } from './wrk.ts';

const [binA, binB, kinds = 'new,repeat'] = process.argv.slice(2);
const SECONDS = Number(process.env['PAIR_SECONDS'] ?? 8);
const PAIRS = Number(process.env['PAIR_PAIRS'] ?? 5);
const CONNECTIONS = Number(process.env['PAIR_CONNECTIONS'] ?? 16);
const NODE_ARGS = ['A', 'B'].map((name) => (process.env[`PAIR_NODE_ARGS_${name}`] ?? '').split(/\s+/).filter(Boolean));

async function main(): Promise<void> {
  if (!binA || !binB) throw new Error('usage: node src/browser-event-pair.ts <bin A> <bin B> [kinds]');
  const work = mkdtempSync(join(tmpdir(), 'signpost-browser-event-pair-'));
  const scriptDir = join(work, 'wrk');
  mkdirSync(scriptDir);
  const children: ChildProcess[] = [];
  try {
    const targets: { origin: string; pid: number | undefined; data: BenchData }[] = [];
    for (const [i, main] of [binA, binB].entries()) {
      const dataDir = join(work, `data-${i}`);
      mkdirSync(dataDir);
      const database = await prepareDatabase('sqlite', dataDir);
      const data = await seedBenchDatabase(database.databaseUrl, dataDir, { logGroups: false, roadmapSizes: [] });
      const server = await startServer(main, dataDir, database.databaseUrl, NODE_ARGS[i]);
      children.push(server.child);
      targets.push({ origin: `http://127.0.0.1:${server.port}`, pid: server.child.pid, data });
    }
    const options = { seconds: SECONDS, connections: CONNECTIONS, threads: 1, core: 1, scriptDir };
    for (const kind of kinds.split(',') as Kind[]) {
      const wanted = (t: (typeof targets)[number]) => request(t.data.ingestNumber, t.data.key, kind);
      await Promise.all(targets.map((t) => runWrk(t.origin, wanted(t), { ...options, seconds: 3 })));
      const ratios: number[] = [];
      const perA: number[] = [];
      const perB: number[] = [];
      for (let pair = 1; pair <= PAIRS; pair++) {
        const before = targets.map((t) => cpuSeconds(t.pid) ?? Number.NaN);
        const results = await Promise.all(targets.map((t) => runWrk(t.origin, wanted(t), options)));
        const after = targets.map((t) => cpuSeconds(t.pid) ?? Number.NaN);
        const [a, b] = results.map((result, i) => ((after[i]! - before[i]!) * 1000) / result.requests) as [
          number,
          number,
        ];
        for (const [i, result] of results.entries()) {
          const errors = Object.values(result.errors).reduce((x, y) => x + y, 0);
          if (errors > 0) process.stdout.write(`  (${i === 0 ? 'A' : 'B'}: ${errors} errors)\n`);
        }
        perA.push(a);
        perB.push(b);
        ratios.push(b / a);
        process.stdout.write(
          `${kind} pair ${pair}: A ${a.toFixed(3)} ms/req (${Math.round(results[0]!.requestsPerSecond)} req/s), B ${b.toFixed(3)} ms/req (${Math.round(results[1]!.requestsPerSecond)} req/s), B/A ${(b / a).toFixed(3)}\n`,
        );
      }
      process.stdout.write(
        `${kind}: CPU per request A ${median(perA).toFixed(3)} ms, B ${median(perB).toFixed(3)} ms; B/A median ${median(ratios).toFixed(3)} (${Math.min(...ratios).toFixed(3)}–${Math.max(...ratios).toFixed(3)})\n`,
      );
    }
  } finally {
    for (const child of children) await stopProcess(child);
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
