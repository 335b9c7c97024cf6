/**
 * What storing log lines otherwise would save SQLite's line writes (issue 32's write aim), and
 * what it would cost their reads: bare node:sqlite, three designs side by side.
 *
 * - rows: as the server keeps lines today, a row a line in `log_lines` with its time index and a
 *   span a group and write in `log_line_spans` (migrations 202612110100 and 202701120100);
 * - chunks: a row a group and write holding that write's lines of the group as one JSON array
 *   (as Loki stores a stream's lines), indexed by project and time and by group and time;
 * - bodies: a row a request holding its body as it arrived (no line serialised again), and a span
 *   a group and write naming each of its lines' places in those bodies.
 *
 * Written as the log writer folds a burst of repeats: transactions of `--groups` groups with
 * `--per-group` lines each (32 requests of the same 100 entries folded into one write: 100 × 32).
 * Rounds turn between the three databases; CPU time per line, medians. Then the reads every line
 * page starts with: a group's newest 100 lines (from bodies: every body its spans name, parsed)
 * and the project's newest 100.
 *
 *   node src/line-chunk-cost.ts [--rounds 10] [--transactions 10] [--groups 100] [--per-group 32]
 *
 * `--per-group 1` is the all-new case: every line its own group, a chunk a line.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync, type SQLInputValue } from 'node:sqlite';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '10' },
    transactions: { type: 'string', default: '10' },
    groups: { type: 'string', default: '100' },
    'per-group': { type: 'string', default: '32' },
  },
});
const ROUNDS = Number(values.rounds);
const TRANSACTIONS = Number(values.transactions);
const GROUPS = Number(values.groups);
const PER_GROUP = Number(values['per-group']);
const ROWS_PER_STATEMENT = 100;

const work = mkdtempSync(join(tmpdir(), 'signpost-line-chunks-'));

type Design = 'rows' | 'chunks' | 'bodies';

function open(name: Design): DatabaseSync {
  const db = new DatabaseSync(join(work, `${name}.db`));
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;');
  if (name === 'bodies') {
    db.exec(`CREATE TABLE log_bodies (id INTEGER PRIMARY KEY, project_id TEXT NOT NULL, received_at TEXT NOT NULL,
        body TEXT NOT NULL);
      CREATE INDEX log_bodies_by_time ON log_bodies (project_id, received_at, id);
      CREATE TABLE log_body_spans (group_id TEXT NOT NULL, max_ts TEXT NOT NULL, first_body INTEGER NOT NULL,
        last_body INTEGER NOT NULL, at TEXT NOT NULL, n INTEGER NOT NULL,
        PRIMARY KEY (group_id, max_ts, first_body)) WITHOUT ROWID;`);
  } else if (name === 'chunks') {
    db.exec(`CREATE TABLE log_chunks (id INTEGER PRIMARY KEY, group_id TEXT NOT NULL, project_id TEXT NOT NULL,
        environment TEXT NOT NULL, min_ts TEXT NOT NULL, max_ts TEXT NOT NULL, n INTEGER NOT NULL, lines TEXT NOT NULL);
      CREATE INDEX log_chunks_by_time ON log_chunks (project_id, max_ts, id);
      CREATE INDEX log_chunks_by_group ON log_chunks (group_id, max_ts, id);`);
  } else {
    db.exec(`CREATE TABLE log_lines (id INTEGER PRIMARY KEY, group_id TEXT NOT NULL, project_id TEXT NOT NULL,
        environment TEXT NOT NULL, ts TEXT NOT NULL, level TEXT NOT NULL, severity TEXT, source TEXT,
        app_version TEXT, user_id TEXT, data TEXT, trace_id TEXT, span_id TEXT);
      CREATE INDEX log_lines_by_time ON log_lines (project_id, ts, id);
      CREATE TABLE log_line_spans (group_id TEXT NOT NULL, max_ts TEXT NOT NULL, first_id INTEGER NOT NULL,
        last_id INTEGER NOT NULL, min_ts TEXT NOT NULL, n INTEGER NOT NULL, project_id TEXT NOT NULL,
        PRIMARY KEY (group_id, max_ts, first_id)) WITHOUT ROWID;`);
  }
  return db;
}

interface Entry {
  ts: string;
  level: string;
  source: string;
  appVersion: string;
  data: Record<string, unknown>;
}

let written = 0;
/** One write: GROUPS groups of PER_GROUP entries, as POST /logs entries arrive (data as objects). */
function write(): Array<[string, Entry[]]> {
  const ts = new Date(1_780_000_000_000 + written * 10).toISOString();
  return Array.from({ length: GROUPS }, (_, g) => {
    const group = PER_GROUP === 1 ? `g${written}` : `g${g}`;
    const entries = Array.from({ length: PER_GROUP }, (): Entry => {
      written++;
      return {
        ts,
        level: 'info',
        source: 'api',
        appVersion: '1.0',
        data: { orderId: written % 100_000, path: `/api/orders/${written % 100_000}`, ok: true },
      };
    });
    return [group, entries];
  });
}

/**
 * The write's requests as they arrived: request r held entry r of every group (a client sending
 * the same 100 entries again and again), its body the JSON text that came over the wire.
 */
function bodiesOf(batch: Array<[string, Entry[]]>): string[] {
  return Array.from({ length: PER_GROUP }, (_, r) =>
    JSON.stringify({ logs: batch.map(([, entries]) => ({ message: 'm', ...entries[r]! })) }),
  );
}

const rows = (count: number, width: number) =>
  Array.from({ length: count }, () => `(${Array(width).fill('?').join(', ')})`).join(', ');
const prepared = new Map<string, ReturnType<DatabaseSync['prepare']>>();
function statement(db: DatabaseSync, name: string, sql: (values: string) => string, count: number, width: number) {
  const key = `${name}:${count}`;
  let found = prepared.get(key);
  if (!found) {
    found = db.prepare(sql(rows(count, width)));
    prepared.set(key, found);
  }
  return found;
}

/** Runs `values` (width each) as multi-row statements of at most ROWS_PER_STATEMENT rows. */
function inserted(
  db: DatabaseSync,
  name: string,
  sql: (values: string) => string,
  values: SQLInputValue[],
  width: number,
): number[] {
  const last: number[] = [];
  for (let from = 0; from < values.length; from += ROWS_PER_STATEMENT * width) {
    const part = values.slice(from, from + ROWS_PER_STATEMENT * width);
    last.push(Number(statement(db, name, sql, part.length / width, width).run(...part).lastInsertRowid));
  }
  return last;
}

/** Today's write: a row a line, then a span a group (the write's ids are consecutive). */
function writeRows(db: DatabaseSync, batch: Array<[string, Entry[]]>): void {
  db.exec('BEGIN');
  const lines: SQLInputValue[] = [];
  for (const [group, entries] of batch)
    for (const e of entries)
      lines.push(
        group,
        'p1',
        'live',
        e.ts,
        e.level,
        null,
        e.source,
        e.appVersion,
        null,
        JSON.stringify(e.data),
        null,
        null,
      );
  const ends = inserted(
    db,
    'lines',
    (v) => `INSERT INTO log_lines (group_id, project_id, environment, ts, level, severity, source, app_version,
      user_id, data, trace_id, span_id) VALUES ${v}`,
    lines,
    12,
  );
  let id = ends.at(-1)! - lines.length / 12 + 1;
  const spans: SQLInputValue[] = [];
  for (const [group, entries] of batch) {
    spans.push(group, entries.at(-1)!.ts, id, id + entries.length - 1, entries[0]!.ts, entries.length, 'p1');
    id += entries.length;
  }
  inserted(
    db,
    'spans',
    (v) => `INSERT INTO log_line_spans (group_id, max_ts, first_id, last_id, min_ts, n, project_id) VALUES ${v}`,
    spans,
    7,
  );
  db.exec('COMMIT');
}

/** A chunk a group: its lines as one JSON array of [ts, level, severity, source, version, user, data, trace, span]. */
function writeChunks(db: DatabaseSync, batch: Array<[string, Entry[]]>): void {
  db.exec('BEGIN');
  const chunks: SQLInputValue[] = [];
  for (const [group, entries] of batch) {
    const encoded = entries.map((e) => [e.ts, e.level, null, e.source, e.appVersion, null, e.data, null, null]);
    chunks.push(group, 'p1', 'live', entries[0]!.ts, entries.at(-1)!.ts, entries.length, JSON.stringify(encoded));
  }
  inserted(
    db,
    'chunks',
    (v) => `INSERT INTO log_chunks (group_id, project_id, environment, min_ts, max_ts, n, lines) VALUES ${v}`,
    chunks,
    7,
  );
  db.exec('COMMIT');
}

/**
 * Storing what arrived as it arrived: one row a request (its body), and a span a group and write
 * naming the bodies and each line's place in them ([body offset, entry index] pairs).
 */
function writeBodies(db: DatabaseSync, batch: Array<[string, Entry[]]>, bodies: string[]): void {
  db.exec('BEGIN');
  const values: SQLInputValue[] = [];
  const at = batch[0]![1][0]!.ts;
  for (const body of bodies) values.push('p1', at, body);
  const ends = inserted(
    db,
    'bodies',
    (v) => `INSERT INTO log_bodies (project_id, received_at, body) VALUES ${v}`,
    values,
    3,
  );
  const first = ends.at(-1)! - bodies.length + 1;
  const spans: SQLInputValue[] = [];
  for (const [g, [group, entries]] of batch.entries()) {
    const places = entries.map((_, r) => [r, g]);
    spans.push(group, entries.at(-1)!.ts, first, first + bodies.length - 1, JSON.stringify(places), entries.length);
  }
  inserted(
    db,
    'body-spans',
    (v) => `INSERT INTO log_body_spans (group_id, max_ts, first_body, last_body, at, n) VALUES ${v}`,
    spans,
    6,
  );
  db.exec('COMMIT');
}

const cpuMicros = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

const plain = open('rows');
const chunked = open('chunks');
const stored = open('bodies');
const perLine: Record<Design, number[]> = { rows: [], chunks: [], bodies: [] };
for (let round = 0; round < ROUNDS; round++) {
  const order: Array<[Design, DatabaseSync]> = [
    ['rows', plain],
    ['chunks', chunked],
    ['bodies', stored],
  ];
  // Each design first, middle and last in turn.
  const turned = [...order.slice(round % 3), ...order.slice(0, round % 3)];
  for (const [name, db] of turned) {
    const batches = Array.from({ length: TRANSACTIONS }, write);
    // The bodies arrived as text: made before the clock starts.
    const bodies = batches.map(bodiesOf);
    prepared.clear();
    const started = cpuMicros();
    for (const [i, batch] of batches.entries()) {
      if (name === 'rows') writeRows(db, batch);
      else if (name === 'chunks') writeChunks(db, batch);
      else writeBodies(db, batch, bodies[i]!);
    }
    perLine[name].push((cpuMicros() - started) / (TRANSACTIONS * GROUPS * PER_GROUP));
  }
}

const count = (plain.prepare('SELECT COUNT(*) AS n FROM log_lines').get() as { n: number }).n;
const bytes = (db: DatabaseSync) =>
  (db.prepare('SELECT page_count * page_size AS b FROM pragma_page_count(), pragma_page_size()').get() as { b: number })
    .b;
console.log(
  `SQLite, ${count.toLocaleString('en')} lines each (${GROUPS} groups × ${PER_GROUP} lines a write), ${ROUNDS} rounds; CPU µs per line, medians:`,
);
console.log(`  a row a line, a span a group and write    ${median(perLine.rows).toFixed(2)}`);
console.log(`  a chunk a group and write                 ${median(perLine.chunks).toFixed(2)}`);
console.log(`  a row a request's body, a span a group     ${median(perLine.bodies).toFixed(2)}`);
console.log(
  `  ratio to rows                             chunks ${(median(perLine.chunks) / median(perLine.rows)).toFixed(3)}, bodies ${(median(perLine.bodies) / median(perLine.rows)).toFixed(3)}`,
);
console.log(
  `  bytes per line                            rows ${(bytes(plain) / count).toFixed(0)}, chunks ${(bytes(chunked) / count).toFixed(0)}, bodies ${(bytes(stored) / count).toFixed(0)}`,
);

function timed(run: () => number): string {
  let found = 0;
  const started = performance.now();
  for (let i = 0; i < 20; i++) found = run();
  return `${((performance.now() - started) / 20).toFixed(2)} ms (${found} lines)`;
}
// A group of each database's last write (with one line a group, the two hold different groups).
const lastGroup = (db: DatabaseSync, table: string) =>
  PER_GROUP === 1
    ? (db.prepare(`SELECT group_id FROM ${table} ORDER BY id DESC LIMIT 1`).get() as { group_id: string }).group_id
    : 'g7';
const groupRows =
  plain.prepare(`SELECT l.* FROM log_line_spans s JOIN log_lines l ON l.id BETWEEN s.first_id AND s.last_id
  WHERE s.group_id = ? AND l.group_id = s.group_id ORDER BY s.max_ts DESC, l.id DESC LIMIT 100`);
const groupChunks = chunked.prepare(
  'SELECT lines FROM log_chunks WHERE group_id = ? ORDER BY max_ts DESC, id DESC LIMIT ?',
);
const newestRows = plain.prepare(`SELECT * FROM log_lines WHERE project_id = 'p1' ORDER BY ts DESC, id DESC LIMIT 100`);
const newestChunks = chunked.prepare(
  `SELECT lines FROM log_chunks WHERE project_id = 'p1' ORDER BY max_ts DESC, id DESC LIMIT ?`,
);
/** Decodes chunks newest first until 100 lines (a chunk's lines are in time order). */
const fromChunks = (statement: ReturnType<DatabaseSync['prepare']>, ...params: SQLInputValue[]) => {
  const lines: unknown[] = [];
  const wanted = Math.ceil(100 / PER_GROUP) + 1;
  for (const { lines: text } of statement.all(...params, wanted) as Array<{ lines: string }>) {
    lines.push(...(JSON.parse(text) as unknown[]).reverse());
    if (lines.length >= 100) break;
  }
  return lines.slice(0, 100).length;
};
console.log("A group's newest 100 lines:");
console.log(
  `  rows through its spans                    ${timed(() => groupRows.all(lastGroup(plain, 'log_lines')).length)}`,
);
console.log(
  `  its chunks, decoded                       ${timed(() => fromChunks(groupChunks, lastGroup(chunked, 'log_chunks')))}`,
);
const groupSpans = stored.prepare(
  'SELECT first_body, last_body, at FROM log_body_spans WHERE group_id = ? ORDER BY max_ts DESC, first_body DESC LIMIT ?',
);
const bodyRange = stored.prepare('SELECT id, body FROM log_bodies WHERE id BETWEEN ? AND ?');
/** A group's newest 100 lines from the bodies: each span's bodies parsed, its lines picked. */
const fromBodies = (group: string) => {
  const lines: unknown[] = [];
  const spans = groupSpans.all(group, Math.ceil(100 / PER_GROUP) + 1) as Array<{
    first_body: number;
    last_body: number;
    at: string;
  }>;
  for (const span of spans) {
    const parsed = new Map<number, { logs: unknown[] }>();
    for (const { id, body } of bodyRange.all(span.first_body, span.last_body) as Array<{ id: number; body: string }>)
      parsed.set(id, JSON.parse(body) as { logs: unknown[] });
    const places = JSON.parse(span.at) as Array<[number, number]>;
    for (let i = places.length - 1; i >= 0 && lines.length < 100; i--) {
      const [body, entry] = places[i]!;
      lines.push(parsed.get(span.first_body + body)!.logs[entry]);
    }
    if (lines.length >= 100) break;
  }
  return lines.length;
};
const lastBodyGroup = () =>
  PER_GROUP === 1
    ? (
        stored.prepare('SELECT group_id FROM log_body_spans ORDER BY first_body DESC LIMIT 1').get() as {
          group_id: string;
        }
      ).group_id
    : 'g7';
console.log(`  its spans' bodies, parsed                 ${timed(() => fromBodies(lastBodyGroup()))}`);
console.log("The project's newest 100 lines:");
console.log(`  rows by time                              ${timed(() => newestRows.all().length)}`);
console.log(`  chunks by time, decoded                   ${timed(() => fromChunks(newestChunks))}`);
plain.close();
chunked.close();
stored.close();
rmSync(work, { recursive: true, force: true });
