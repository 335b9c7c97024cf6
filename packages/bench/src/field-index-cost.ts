/**
 * What an index of log field values would cost SQLite's line writes (issue 32): bare node:sqlite,
 * `log_lines` as migration 202612110100 makes it (the time index; spans aside), written in
 * transactions of 3,200 lines as the log writer folds them, alone and with an FTS5 index of one
 * token per field and value (contentless, `detail=none`: only which lines hold a token), the
 * index an equality filter (`data.orderId = 42`) would read to find a rare value without a
 * window of lines. Rounds alternate between the two databases; CPU time per line, medians.
 * Then the rare value through the index against the window the server reads today.
 *
 *   node src/field-index-cost.ts [--rounds 10] [--transactions 10]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync, type SQLInputValue } from 'node:sqlite';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: { rounds: { type: 'string', default: '10' }, transactions: { type: 'string', default: '10' } },
});
const ROUNDS = Number(values.rounds);
const TRANSACTIONS = Number(values.transactions);
const LINES_PER_TRANSACTION = 3200;
const ROWS_PER_STATEMENT = 100;

const work = mkdtempSync(join(tmpdir(), 'signpost-field-index-'));

function open(name: string, indexed: boolean): DatabaseSync {
  const db = new DatabaseSync(join(work, `${name}.db`));
  db.exec(`PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;
    CREATE TABLE log_lines (id INTEGER PRIMARY KEY, group_id TEXT NOT NULL, project_id TEXT NOT NULL,
      environment TEXT NOT NULL, ts TEXT NOT NULL, level TEXT NOT NULL, severity TEXT, source TEXT,
      app_version TEXT, user_id TEXT, data TEXT, trace_id TEXT, span_id TEXT);
    CREATE INDEX log_lines_by_time ON log_lines (project_id, ts, id);`);
  if (indexed) {
    db.exec(`CREATE VIRTUAL TABLE log_line_fields USING fts5(tokens, content = '', contentless_delete = 1,
      tokenize = 'ascii', detail = none)`);
  }
  return db;
}

/** FNV-1a of a string, from a seed: two seeds make a 64-bit token. */
function fnv(text: string, seed: number): number {
  let hash = seed;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 16777619);
  return hash >>> 0;
}

/** One token per scalar field of `data` (objects followed, as the filter's paths are). */
function fieldTokens(data: Record<string, unknown>, path = '', out: string[] = []): string[] {
  for (const name in data) {
    const value = data[name];
    const at = path ? `${path}.${name}` : name;
    if (value !== null && typeof value === 'object') {
      if (!Array.isArray(value)) fieldTokens(value as Record<string, unknown>, at, out);
      continue;
    }
    const text = `${at}\u0000${typeof value === 'boolean' ? (value ? 1 : 0) : String(value)}`;
    out.push(`e${fnv(text, 2166136261).toString(36)}x${fnv(text, 374761393).toString(36)}`);
  }
  return out;
}

let written = 0;
type Line = { row: SQLInputValue[]; data: Record<string, unknown> };
function lines(): Line[] {
  return Array.from({ length: LINES_PER_TRANSACTION }, () => {
    written++;
    const data = { orderId: written % 100_000, path: `/api/orders/${written % 100_000}`, ok: true };
    const ts = new Date(1_780_000_000_000 + written * 100).toISOString();
    const row = [
      `g${written % 100}`,
      'p1',
      'live',
      ts,
      'info',
      null,
      'api',
      '1.0',
      null,
      JSON.stringify(data),
      null,
      null,
    ];
    return { row, data };
  });
}

const rows = (count: number, width: number) =>
  Array.from({ length: count }, () => `(${Array(width).fill('?').join(', ')})`).join(', ');

function write(db: DatabaseSync, indexed: boolean, batch: Line[]): void {
  const insertLines = db.prepare(`INSERT INTO log_lines (group_id, project_id, environment, ts, level, severity,
    source, app_version, user_id, data, trace_id, span_id) VALUES ${rows(ROWS_PER_STATEMENT, 12)}`);
  const insertTokens = indexed
    ? db.prepare(`INSERT INTO log_line_fields (rowid, tokens) VALUES ${rows(ROWS_PER_STATEMENT, 2)}`)
    : undefined;
  db.exec('BEGIN');
  for (let from = 0; from < batch.length; from += ROWS_PER_STATEMENT) {
    const chunk = batch.slice(from, from + ROWS_PER_STATEMENT);
    const { lastInsertRowid } = insertLines.run(...chunk.flatMap((line) => line.row));
    if (insertTokens) {
      const first = Number(lastInsertRowid) - chunk.length + 1;
      insertTokens.run(...chunk.flatMap((line, i) => [first + i, fieldTokens(line.data).join(' ')]));
    }
  }
  db.exec('COMMIT');
}

const cpuMicros = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

const plain = open('plain', false);
const indexed = open('indexed', true);
const perLine = { plain: [] as number[], indexed: [] as number[], tokens: [] as number[] };
for (let round = 0; round < ROUNDS; round++) {
  const order: Array<['plain' | 'indexed', DatabaseSync]> = [
    ['plain', plain],
    ['indexed', indexed],
  ];
  for (const [name, db] of round % 2 ? order : order.reverse()) {
    const batches = Array.from({ length: TRANSACTIONS }, lines);
    const started = cpuMicros();
    for (const batch of batches) write(db, name === 'indexed', batch);
    perLine[name].push((cpuMicros() - started) / (TRANSACTIONS * LINES_PER_TRANSACTION));
  }
  const batch = lines();
  const started = cpuMicros();
  for (const line of batch) fieldTokens(line.data).join(' ');
  perLine.tokens.push((cpuMicros() - started) / LINES_PER_TRANSACTION);
}

const count = (plain.prepare('SELECT COUNT(*) AS n FROM log_lines').get() as { n: number }).n;
console.log(`SQLite, ${count.toLocaleString('en')} lines each, ${ROUNDS} rounds; CPU µs per line, medians:`);
console.log(`  lines alone                          ${median(perLine.plain).toFixed(2)}`);
console.log(`  lines and an FTS5 token per field     ${median(perLine.indexed).toFixed(2)}`);
console.log(`  of which the tokens in JavaScript     ${median(perLine.tokens).toFixed(2)}`);

function timed(db: DatabaseSync, sql: string, ...params: SQLInputValue[]): string {
  const statement = db.prepare(sql);
  let found = 0;
  const started = performance.now();
  for (let i = 0; i < 20; i++) found = statement.all(...params).length;
  return `${((performance.now() - started) / 20).toFixed(2)} ms (${found} lines)`;
}
const [token] = fieldTokens({ orderId: 42 });
console.log('data.orderId = 42, newest 100:');
console.log(
  `  through the index                    ${timed(
    indexed,
    `SELECT * FROM log_lines WHERE id IN (SELECT rowid FROM log_line_fields WHERE log_line_fields MATCH ?)
      AND json_extract(data, '$."orderId"') = 42 ORDER BY ts DESC, id DESC LIMIT 100`,
    `"${token}"`,
  )}`,
);
console.log(
  `  a window of 50,000 (until 2026-11-30)${timed(
    plain,
    `SELECT * FROM (SELECT * FROM log_lines WHERE project_id = 'p1' ORDER BY ts DESC, id DESC LIMIT 50000)
      WHERE json_extract(data, '$."orderId"') = 42 LIMIT 100`,
  )}`,
);
plain.close();
indexed.close();
rmSync(work, { recursive: true, force: true });
