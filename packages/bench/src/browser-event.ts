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
 *   BENCH_BASELINE_MAIN=/path/to/other/bin/signpost-server.js …          (a second build, measured in the same run)
 *
 * Besides req/s it prints each process's CPU per request (from /proc/<pid>/stat around each wrk
 * run, Linux) and, on SQLite, the disk per stored event: the database's bytes in use before and
 * after a few seconds of events that each make a new group (so every one is kept), per event.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';
import { prepareDatabase } from './databases.ts';
import { SERVER_NODE_ARGS, startProcess, startServer, stopProcess } from './processes.ts';
import { seedBenchDatabase } from './seed.ts';
import { runWrk, type WrkRequest, type WrkResult } from './wrk.ts';

const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 10);
const CONNECTIONS = Number(process.env['BENCH_CONNECTIONS'] ?? 32);
const SERVER_MAIN =
  process.env['BENCH_SERVER_MAIN'] ?? fileURLToPath(new URL('../../server/bin/signpost-server.js', import.meta.url));
const FLOOR_MAIN = fileURLToPath(new URL('./floor.ts', import.meta.url));
export type Kind = 'new' | 'repeat' | 'distinct';
const KINDS = (process.env['BENCH_KINDS'] ?? 'new,repeat')
  .split(',')
  .filter((kind): kind is Kind => kind === 'new' || kind === 'repeat' || kind === 'distinct');
const BASELINE_MAIN = process.env['BENCH_BASELINE_MAIN'];
const DISK_SECONDS = Number(process.env['BENCH_DISK_SECONDS'] ?? 3);

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
    // The newest in-app frame's function carries the `distinct` kind's second counter.
    ...(i === 39 ? { function: 'checkoutStep39FUNCTION' } : {}),
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

const KIND_LABEL: Record<Kind, string> = {
  new: 'new groups',
  repeat: 'repeated group',
  distinct: 'distinct groups',
};

export function request(ingestNumber: number, key: string, kind: Kind): WrkRequest {
  const [before, middle, after] = browserEvent().split(/MESSAGE|FUNCTION/) as [string, string, string];
  const head = '{"event_id":"e4b5a1a0c0d94f6f9b6c1d2e3f405162"}\n{"type":"event"}\n';
  const path = `/api/${ingestNumber}/envelope/?sentry_key=${key}&sentry_version=7`;
  const headers = { 'Content-Type': 'text/plain;charset=UTF-8' };
  // `new`: the counter in the message's first word makes a new record (title) per event; the stack's
  // in-app frames, which group, stay the same, so the error group repeats. `distinct`: the counter
  // in the newest in-app frame's function too, so every event makes a new group (and is kept).
  // `repeat`: the same error every time.
  if (kind === 'new') {
    return {
      method: 'POST',
      path,
      headers,
      uniqueBody: { parts: [`${head}${before}Checkout`, ` failed${middle}${after}\n`] },
    };
  }
  if (kind === 'distinct') {
    return {
      method: 'POST',
      path,
      headers,
      uniqueBody: { parts: [`${head}${before}Checkout`, ` failed${middle}`, `${after}\n`] },
    };
  }
  return { method: 'POST', path, headers, body: `${head}${before}Checkout failed${middle}${after}\n` };
}

/** User plus system CPU seconds of a process so far (Linux; undefined elsewhere). */
export function cpuSeconds(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    // Fields after the command name (which may hold spaces, in parentheses): utime is the 14th, stime the 15th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

interface Measured {
  wrk: WrkResult;
  /** CPU milliseconds of the process per answered request. */
  cpuMs: number | undefined;
}

async function measure(
  origin: string,
  pid: number | undefined,
  wanted: WrkRequest,
  options: Parameters<typeof runWrk>[2],
) {
  const before = cpuSeconds(pid);
  const wrk = await runWrk(origin, wanted, options);
  const after = cpuSeconds(pid);
  const cpuMs = before === undefined || after === undefined ? undefined : ((after - before) * 1000) / wrk.requests;
  return { wrk, cpuMs } satisfies Measured;
}

/** Bytes in use by the database (its pages less the free ones, WAL included) and events kept. */
function diskUse(path: string): { bytes: number; events: number; tables: Map<string, number> } {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    const one = (sql: string) => Number(Object.values(db.prepare(sql).get() as Record<string, number>)[0]);
    const bytes = (one('PRAGMA page_count') - one('PRAGMA freelist_count')) * one('PRAGMA page_size');
    const events = one('SELECT COUNT(*) FROM error_events');
    const tables = new Map<string, number>();
    try {
      for (const row of db.prepare('SELECT name, SUM(pgsize) AS size FROM dbstat GROUP BY name').all()) {
        tables.set(String(row['name']), Number(row['size']));
      }
    } catch {
      // dbstat is an optional part of SQLite: without it, the total only.
    }
    return { bytes, events, tables };
  } finally {
    db.close();
  }
}

interface Target {
  name: string;
  origin: string;
  pid: number | undefined;
  ingestNumber: number;
  key: string;
  dbPath: string;
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'signpost-browser-event-'));
  const scriptDir = join(work, 'wrk');
  mkdirSync(scriptDir);
  const children = [];
  try {
    const targets: Target[] = [];
    const mains = BASELINE_MAIN
      ? [['baseline', BASELINE_MAIN] as const, ['Signpost', SERVER_MAIN] as const]
      : [['Signpost', SERVER_MAIN] as const];
    for (const [name, main] of mains) {
      const dataDir = join(work, `data-${targets.length}`);
      mkdirSync(dataDir);
      const database = await prepareDatabase('sqlite', dataDir);
      const data = await seedBenchDatabase(database.databaseUrl, dataDir, { logGroups: false, roadmapSizes: [] });
      const server = await startServer(main, dataDir, database.databaseUrl, SERVER_NODE_ARGS);
      children.push(server.child);
      targets.push({
        name,
        origin: `http://127.0.0.1:${server.port}`,
        pid: server.child.pid,
        ingestNumber: data.ingestNumber,
        key: data.key,
        dbPath: database.databaseUrl.replace(/^sqlite:/, ''),
      });
    }
    const floor = await startProcess(FLOOR_MAIN, {}, /listening (\d+)/);
    children.push(floor.child);
    const floorTarget = { origin: `http://127.0.0.1:${floor.port}`, pid: floor.child.pid };
    const first = targets[0]!;
    const bytes = Buffer.byteLength(request(first.ingestNumber, first.key, 'repeat').body!);
    process.stdout.write(`browser event envelope: ${(bytes / 1024).toFixed(1)} KB\n`);
    const options = { seconds: SECONDS, connections: CONNECTIONS, threads: 2, core: 1, scriptDir };
    process.stdout.write(
      '| Scenario | Server | req/s | p99 | CPU/req | Floor req/s | Floor CPU/req | / floor |\n|---|---|---|---|---|---|---|---|\n',
    );
    const ms = (value: number | undefined) => (value === undefined ? '–' : `${value.toFixed(3)} ms`);
    for (const kind of KINDS) {
      const wantedOf = (target: Target) => request(target.ingestNumber, target.key, kind);
      // Warm-up of each, then the floor around every Signpost measurement (its mean is the floor).
      await runWrk(floorTarget.origin, wantedOf(first), { ...options, seconds: 2 });
      for (const target of targets) await runWrk(target.origin, wantedOf(target), { ...options, seconds: 2 });
      let floorBefore = await measure(floorTarget.origin, floorTarget.pid, wantedOf(first), options);
      for (const target of targets) {
        const s = await measure(target.origin, target.pid, wantedOf(target), options);
        const floorAfter = await measure(floorTarget.origin, floorTarget.pid, wantedOf(first), options);
        const floorRate = (floorBefore.wrk.requestsPerSecond + floorAfter.wrk.requestsPerSecond) / 2;
        const floorCpu =
          floorBefore.cpuMs === undefined || floorAfter.cpuMs === undefined
            ? undefined
            : (floorBefore.cpuMs + floorAfter.cpuMs) / 2;
        const errors = Object.values(s.wrk.errors).reduce((a, b) => a + b, 0);
        if (errors > 0)
          process.stdout.write(`  (${target.name} ${kind}: ${errors} errors ${JSON.stringify(s.wrk.errors)})\n`);
        process.stdout.write(
          `| browser event, ${KIND_LABEL[kind]} | ${target.name} | ${Math.round(s.wrk.requestsPerSecond)} | ${s.wrk.latencyMs.p99.toFixed(1)} ms | ${ms(s.cpuMs)} | ${Math.round(floorRate)} | ${ms(floorCpu)} | ${Math.round((s.wrk.requestsPerSecond / floorRate) * 100)} % |\n`,
        );
        floorBefore = floorAfter;
      }
    }
    if (DISK_SECONDS > 0) {
      for (const target of targets) {
        const before = diskUse(target.dbPath);
        await runWrk(target.origin, request(target.ingestNumber, target.key, 'distinct'), {
          ...options,
          seconds: DISK_SECONDS,
        });
        const after = diskUse(target.dbPath);
        const stored = after.events - before.events;
        const grown = [...after.tables]
          .map(([name, size]) => [name, size - (before.tables.get(name) ?? 0)] as const)
          .filter(([, size]) => size > 0)
          .sort((a, b) => b[1] - a[1])
          .slice(0, 8)
          .map(([name, size]) => `${name} ${(size / stored / 1024).toFixed(1)}`)
          .join(', ');
        process.stdout.write(
          `disk per stored event (${target.name}, SQLite, ${stored} events each a new group): ${((after.bytes - before.bytes) / stored / 1024).toFixed(1)} KB${grown ? ` (KB per event by table and index: ${grown})` : ''}\n`,
        );
      }
    }
  } finally {
    for (const child of children) await stopProcess(child);
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
