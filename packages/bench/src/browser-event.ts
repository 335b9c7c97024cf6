/**
 * The browser-event bench (issue 31): a realistic ~30 KB browser error event (40 frames with
 * context lines, 50 breadcrumbs, contexts, tags, user, request) sent as a Sentry envelope, new
 * groups (a new message each time) and repeated ones, against a floor measured in the same run: a
 * bare node:http server that parses the same bytes and inserts them in batches into SQLite
 * (floor.ts). Prints req/s, p99 and the ratio to the floor; SQLite only.
 *
 *   node src/browser-event.ts            (BENCH_SECONDS per measurement, default 10; BENCH_CONNECTIONS 32)
 *   BENCH_SERVER_MAIN=../server/src/main.ts node src/browser-event.ts   (the TypeScript source, unbuilt)
 *   BENCH_KINDS=new node src/browser-event.ts                            (only new groups; default new,repeat)
 *   BENCH_SERVER_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' …       (profile the server process)
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { prepareDatabase } from './databases.ts';
import { startProcess, startServer, stopProcess } from './processes.ts';
import { seedBenchDatabase } from './seed.ts';
import { runWrk, type WrkRequest } from './wrk.ts';

const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 10);
const CONNECTIONS = Number(process.env['BENCH_CONNECTIONS'] ?? 32);
const SERVER_MAIN =
  process.env['BENCH_SERVER_MAIN'] ?? fileURLToPath(new URL('../../server/bin/signpost-server.js', import.meta.url));
const FLOOR_MAIN = fileURLToPath(new URL('./floor.ts', import.meta.url));
const KINDS = (process.env['BENCH_KINDS'] ?? 'new,repeat')
  .split(',')
  .filter((kind): kind is 'new' | 'repeat' => kind === 'new' || kind === 'repeat');
const SERVER_NODE_ARGS = (process.env['BENCH_SERVER_NODE_ARGS'] ?? '').split(/\s+/).filter(Boolean);

const line = (n: number) => `    const v${n} = price(order.items[${n}], opts);`;

/** The event, with `MESSAGE` where the message goes (a marker the envelope splits on). */
export function browserEvent(): string {
  const frames = Array.from({ length: 40 }, (_, i) => ({
    filename: `https://shop.example.com/assets/${i < 30 ? 'vendor' : 'app'}-${(i % 7) + 1}.js`,
    abs_path: `https://shop.example.com/assets/${i < 30 ? 'vendor' : 'app'}-${(i % 7) + 1}.js`,
    function: `${i < 30 ? 'vendorFn' : 'checkoutStep'}${i}`,
    lineno: 100 + i * 13,
    colno: 5 + i,
    in_app: i >= 30,
    pre_context: [line(i), line(i + 1), line(i + 2)],
    context_line: `    return total(order.items[${i}].price, opts);`,
    post_context: [line(i + 3), line(i + 4), line(i + 5)],
  }));
  const breadcrumbs = Array.from({ length: 50 }, (_, i) => ({
    timestamp: 1_790_000_000 + i,
    category: ['ui.click', 'navigation', 'fetch', 'console'][i % 4],
    level: 'info',
    message: `button#checkout-step-${i}`,
    data: { url: `/api/cart/${i}`, method: 'GET', status_code: 200 },
  }));
  return JSON.stringify({
    event_id: 'e4b5a1a0c0d94f6f9b6c1d2e3f405162',
    timestamp: 1_790_000_100,
    platform: 'javascript',
    level: 'error',
    release: 'shop@5.2.0',
    environment: 'production',
    sdk: { name: 'sentry.javascript.browser', version: '10.0.0' },
    user: { id: 'user-42', email: 'ada@example.com', ip_address: '{{auto}}' },
    tags: { page: 'checkout', plan: 'pro', locale: 'en-GB' },
    contexts: {
      browser: { name: 'Chrome', version: '140.0.0' },
      os: { name: 'Windows', version: '11' },
      device: { family: 'Desktop' },
      order: { id: 'o_123', items: 3, total: 129.9, currency: 'EUR' },
    },
    request: {
      url: 'https://shop.example.com/checkout',
      headers: {
        'User-Agent':
          'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36',
        Referer: 'https://shop.example.com/cart',
      },
    },
    breadcrumbs: { values: breadcrumbs },
    exception: {
      values: [
        {
          type: 'TypeError',
          value: 'MESSAGE',
          mechanism: { type: 'onerror', handled: false },
          stacktrace: { frames },
        },
      ],
    },
  });
}

function request(ingestNumber: number, key: string, kind: 'new' | 'repeat'): WrkRequest {
  const [before, after] = browserEvent().split('MESSAGE') as [string, string];
  const head = '{"event_id":"e4b5a1a0c0d94f6f9b6c1d2e3f405162"}\n{"type":"event"}\n';
  const path = `/api/${ingestNumber}/envelope/?sentry_key=${key}&sentry_version=7`;
  const headers = { 'Content-Type': 'text/plain;charset=UTF-8' };
  // `new`: the counter in the message's first word makes a new group per event (the grouping
  // normalises numbers, not words); `repeat`: the same error every time.
  return kind === 'new'
    ? { method: 'POST', path, headers, uniqueBody: { parts: [`${head}${before}Checkout`, ` failed${after}\n`] } }
    : { method: 'POST', path, headers, body: `${head}${before}Checkout failed${after}\n` };
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'signpost-browser-event-'));
  const scriptDir = join(work, 'wrk');
  mkdirSync(scriptDir);
  const children = [];
  try {
    const dataDir = join(work, 'data');
    mkdirSync(dataDir);
    const database = await prepareDatabase('sqlite', dataDir);
    const data = await seedBenchDatabase(database.databaseUrl, dataDir, { logGroups: false, roadmapSizes: [] });
    const server = await startServer(SERVER_MAIN, dataDir, database.databaseUrl, SERVER_NODE_ARGS);
    children.push(server.child);
    const floor = await startProcess(FLOOR_MAIN, {}, /listening (\d+)/);
    children.push(floor.child);
    const bytes = Buffer.byteLength(request(data.ingestNumber, data.key, 'repeat').body!);
    process.stdout.write(`browser event envelope: ${(bytes / 1024).toFixed(1)} KB\n`);
    const options = { seconds: SECONDS, connections: CONNECTIONS, threads: 2, core: 1, scriptDir };
    process.stdout.write(
      '| Scenario | Signpost req/s | p99 | Floor req/s | p99 | Signpost / floor |\n|---|---|---|---|---|---|\n',
    );
    for (const kind of KINDS) {
      const wanted = request(data.ingestNumber, data.key, kind);
      // Warm-up of each, then the floor, Signpost, and the floor again (its mean is the floor).
      await runWrk(`http://127.0.0.1:${floor.port}`, wanted, { ...options, seconds: 2 });
      await runWrk(`http://127.0.0.1:${server.port}`, wanted, { ...options, seconds: 2 });
      const f1 = await runWrk(`http://127.0.0.1:${floor.port}`, wanted, options);
      const s = await runWrk(`http://127.0.0.1:${server.port}`, wanted, options);
      const f2 = await runWrk(`http://127.0.0.1:${floor.port}`, wanted, options);
      const floorRate = (f1.requestsPerSecond + f2.requestsPerSecond) / 2;
      const errors = Object.values(s.errors).reduce((a, b) => a + b, 0);
      if (errors > 0) process.stdout.write(`  (Signpost ${kind}: ${errors} errors ${JSON.stringify(s.errors)})\n`);
      process.stdout.write(
        `| browser event, ${kind === 'new' ? 'new groups' : 'repeated group'} | ${Math.round(s.requestsPerSecond)} | ${s.latencyMs.p99.toFixed(1)} ms | ${Math.round(floorRate)} | ${Math.max(f1.latencyMs.p99, f2.latencyMs.p99).toFixed(1)} ms | ${Math.round((s.requestsPerSecond / floorRate) * 100)} % |\n`,
      );
    }
  } finally {
    for (const child of children) await stopProcess(child);
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
