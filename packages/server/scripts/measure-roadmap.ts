/**
 * GET /roadmap with 100 and with 100,000 features, in the same run, as a ratio (issue 16: the
 * large one within 20% of the small one). One in-process server on a fresh test database with
 * two projects seeded in bulk (test/support/bulk-features.ts); wrk on the other core; rounds
 * alternate between the projects and the median counts. Then the roadmap's query alone, called
 * in-process, bypassing every cache (what a request after each write, or on PostgreSQL, pays).
 *
 *   SIGNPOST_TEST_DB=sqlite taskset -c 0 node scripts/measure-roadmap.ts [seconds] [rounds]
 *
 * Not a test (no timings in tests) and not the bench (packages/bench owns the full scenarios).
 */
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { listRoadmapItems } from '../src/resources/features/store.ts';
import { insertBulkFeatures } from '../test/support/bulk-features.ts';
import { startTestServer } from '../test/support/server.ts';

const seconds = Number(process.argv[2] ?? 5);
const rounds = Number(process.argv[3] ?? 3);
const STATUSES = ['open', 'planned', 'in-progress', 'in-review', 'accepted', 'done', 'declined'];

function wrk(url: string, key: string): Promise<{ rps: number; p99: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('taskset', [
      '-c',
      '1',
      'wrk',
      '-t1',
      '-c16',
      `-d${seconds}s`,
      '--latency',
      '-H',
      `x-api-key: ${key}`,
      url,
    ]);
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('error', reject);
    child.on('close', () => {
      const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]);
      const p99 = /^\s+99%\s+(\S+)/m.exec(out)?.[1] ?? '?';
      if (!Number.isFinite(rps) || /Non-2xx/.test(out)) reject(new Error(out));
      else resolve({ rps, p99 });
    });
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const server = await startTestServer();
try {
  const sizes = [100, 100_000];
  const projects = [];
  for (const size of sizes) {
    const project = await server.createProject();
    await insertBulkFeatures(server.db, { count: size, projectId: project.projectId, idPrefix: `f${size}_` });
    projects.push({ size, ...project });
  }
  console.log(
    `database ${server.db.dialect}, load average before: ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  );

  const results = new Map<number, { rps: number[]; p99: string[] }>(sizes.map((size) => [size, { rps: [], p99: [] }]));
  for (let round = 0; round < rounds; round++) {
    for (const project of projects) {
      const { rps, p99 } = await wrk(`${server.baseUrl}/roadmap`, project.liveKey);
      results.get(project.size)!.rps.push(rps);
      results.get(project.size)!.p99.push(p99);
    }
  }
  for (const size of sizes) {
    const { rps, p99 } = results.get(size)!;
    console.log(
      `HTTP GET /roadmap, ${size} features: median ${median(rps).toFixed(0)} req/s [${rps.map((n) => n.toFixed(0)).join(', ')}], p99 ${p99.join(', ')}`,
    );
  }
  const http = median(results.get(100_000)!.rps) / median(results.get(100)!.rps);
  console.log(`HTTP ratio 100,000 / 100: ${(http * 100).toFixed(1)}%`);

  // The query alone, every call read afresh.
  const perCall = new Map<number, number>();
  for (let round = 0; round < rounds; round++) {
    for (const project of projects) {
      const scope = { projectId: project.projectId, environment: 'live' as const };
      const calls = 2000;
      const started = performance.now();
      for (let i = 0; i < calls; i++) await listRoadmapItems(server.db, scope, STATUSES, 100);
      const micros = ((performance.now() - started) * 1000) / calls;
      perCall.set(project.size, Math.min(perCall.get(project.size) ?? Infinity, micros));
    }
  }
  for (const size of sizes)
    console.log(`query alone, ${size} features: best ${perCall.get(size)!.toFixed(0)} µs a call`);
  console.log(`query ratio (speed) 100,000 / 100: ${((perCall.get(100)! / perCall.get(100_000)!) * 100).toFixed(1)}%`);
  console.log(
    `load average after: ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  );
} finally {
  await server.close();
}
