/**
 * A search's first-request cost at 100 and 100,000 ideas, without HTTP and without the memo
 * (issue 30): the inbox's list (`listManagedFeatures`: typo corrections, count and page) and the
 * board's (`listBoardIdeas`), for `q=checkout` and the typo `q=chekout`, timed in-process on the
 * server's own database code. Two projects as the bench seeds them (`Roadmap item i: <word>
 * <word>`, a tenth of them with `checkout`), written with one statement each; the cases run
 * interleaved, so the machine's load falls on all of them alike. Prints the median and p90 of
 * each and its ratio to the same case at 100 ideas.
 *
 *   node packages/bench/src/inbox-search.ts                   SQLite in a temporary directory
 *   BENCH_SEARCH_PG_URL=postgres://postgres@127.0.0.1:5432/postgres node packages/bench/src/inbox-search.ts
 *                                                             PostgreSQL too (a database made and dropped)
 *   BENCH_SEARCH_BEFORE=<dir>/packages/server/src node packages/bench/src/inbox-search.ts
 *                                                             also another tree's list functions (e.g.
 *                                                             `git archive <commit> packages/server/src`
 *                                                             unpacked below this repository, so its imports
 *                                                             resolve), as "before", interleaved with these
 *                                                             on the same database (same schema needed)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase } from '../../server/src/db/open.ts';
import { migrate } from '../../server/src/db/migrate.ts';
import type { Database } from '../../server/src/db/database.ts';
import { listManagedFeatures } from '../../server/src/resources/features/management-read-model.ts';
import { listBoardIdeas } from '../../server/src/resources/features/board-read-model.ts';

const SIZES = [100, 100_000] as const;
const RUNS = Number(process.env['BENCH_SEARCH_RUNS'] ?? 30);
const WORDS = ['checkout', 'login', 'search', 'upload', 'export', 'billing', 'sync', 'render', 'cache', 'queue'];

async function seed(db: Database): Promise<void> {
  const now = '2026-11-28T00:00:00.000Z';
  for (const size of SIZES) {
    const id = `search-${size}`;
    await db.run('INSERT INTO projects (id, name, slug, config_updated_at, created_at) VALUES (?, ?, ?, ?, ?)', [
      id,
      id,
      id,
      now,
      now,
    ]);
    const word = (n: string) => `CASE ${n} ${WORDS.map((w, i) => `WHEN ${i} THEN '${w}'`).join(' ')} END`;
    const rows =
      db.dialect === 'sqlite'
        ? `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${size}) SELECT i FROM n`
        : `SELECT i FROM generate_series(1, ${size}) AS i`;
    await db.run(
      `INSERT INTO features (id, project_id, environment, title, description, type, status, created_at, updated_at)
       SELECT ? || '-' || i, ?, 'live', 'Roadmap item ' || i || ': ' || ${word('i % 10')} || ' ' || ${word('(i * 3) % 10')},
         'A public item on a large roadmap, number ' || i || ', described in a sentence or two like real ones.',
         'feature', 'open', ? || i, ? FROM (${rows}) AS s`,
      [id, id, `2026-01-01T00:00:00.`, now],
    );
  }
  await db.run(db.dialect === 'sqlite' ? 'ANALYZE' : 'ANALYZE features');
}

type Case = [name: string, run: (projectId: string) => Promise<unknown>];
type Lists = { listManagedFeatures: typeof listManagedFeatures; listBoardIdeas: typeof listBoardIdeas };
const casesOf = (lists: Lists, label: string): Case[] => [
  [
    `${label}Inbox q=checkout`,
    (p) => lists.listManagedFeatures(db!, p, { q: 'checkout', sort: 'newest', limit: 50, offset: 0 }),
  ],
  [
    `${label}Inbox q=chekout (typo)`,
    (p) => lists.listManagedFeatures(db!, p, { q: 'chekout', sort: 'newest', limit: 50, offset: 0 }),
  ],
  [`${label}Board q=checkout`, (p) => lists.listBoardIdeas(db!, p, { q: 'checkout', limit: 20, offset: 0 })],
  [`${label}Board q=chekout (typo)`, (p) => lists.listBoardIdeas(db!, p, { q: 'chekout', limit: 20, offset: 0 })],
];
const beforeDir = process.env['BENCH_SEARCH_BEFORE'];
const before: Lists | undefined = beforeDir
  ? {
      listManagedFeatures: (await import(join(beforeDir, 'resources/features/management-read-model.ts')))
        .listManagedFeatures,
      listBoardIdeas: (await import(join(beforeDir, 'resources/features/board-read-model.ts'))).listBoardIdeas,
    }
  : undefined;
const CASES: Case[] = before
  ? casesOf(before, 'before: ').flatMap((old, i) => [
      old,
      casesOf({ listManagedFeatures, listBoardIdeas }, 'after: ')[i]!,
    ])
  : casesOf({ listManagedFeatures, listBoardIdeas }, '');
let db: Database | undefined;

const quantile = (values: number[], q: number) =>
  [...values].sort((a, b) => a - b)[Math.floor(q * (values.length - 1))]!;

async function measure(label: string): Promise<void> {
  const times = new Map<string, number[]>();
  for (let run = 0; run < RUNS; run++) {
    for (const [name, fn] of CASES) {
      for (const size of SIZES) {
        const started = process.hrtime.bigint();
        await fn(`search-${size}`);
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        const key = `${name}\n${size}`;
        times.set(key, [...(times.get(key) ?? []), ms]);
      }
    }
  }
  console.log(`\n${label}: median and p90 of ${RUNS} runs each, interleaved\n`);
  console.log('| Query | 100 ideas | 100,000 ideas | 100,000 ÷ 100 |\n|---|---:|---:|---:|');
  for (const [name] of CASES) {
    const [small, large] = SIZES.map((size) => times.get(`${name}\n${size}`)!);
    const cell = (v: number[]) => `${quantile(v, 0.5).toFixed(2)} ms (p90 ${quantile(v, 0.9).toFixed(2)})`;
    console.log(
      `| ${name} | ${cell(small!)} | ${cell(large!)} | ${(quantile(large!, 0.5) / quantile(small!, 0.5)).toFixed(1)} |`,
    );
  }
}

const dir = mkdtempSync(join(tmpdir(), 'signpost-search-'));
try {
  db = openDatabase({ dataDir: dir });
  await migrate(db);
  await seed(db);
  await measure('SQLite');
  await db.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const pgUrl = process.env['BENCH_SEARCH_PG_URL'];
if (pgUrl) {
  const name = `signpost_search_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  try {
    const url = new URL(pgUrl);
    url.pathname = `/${name}`;
    db = openDatabase({ databaseUrl: url.toString(), dataDir: dir });
    await migrate(db);
    await seed(db);
    await measure('PostgreSQL');
    await db.close();
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}
