/**
 * The benchmark's data: a fresh database (SQLite or PostgreSQL) with the server's migrations, a
 * project with no plan quota (so no quota write happens per request), a live key with every
 * public scope, the demo content (site config, translations in two locales) and a full page of
 * features; the same again with a plan quota no run can reach (metered); projects whose
 * roadmaps hold 100 and 100,000 public features; and projects whose 100 releases had 1,000 and
 * 1,000,000 sessions over the last two weeks (release health).
 */
import type { Database, Queryable } from '../../server/src/db/database.ts';
import { newId } from '../../server/src/kernel/ids.ts';
import { FILTER_STATUSES } from '../../server/src/resources/features/schemas.ts';
import { migrate } from '../../server/src/db/migrate.ts';
import { openDatabase } from '../../server/src/db/open.ts';
import { insertFeature } from '../../server/src/resources/features/index.ts';
import {
  ALL_PUBLIC_SCOPES,
  createApiKey,
  createProject,
  findProject,
} from '../../server/src/resources/projects/index.ts';
import { seedDemoProject } from '../../server/src/seed/demo.ts';
import { updateBoard } from '../../server/src/resources/board/index.ts';
import {
  expireLines,
  LINE_BATCH,
  type LogEntry,
  MINUTE_UNITS,
  MINUTE_VOLUME_HOURS,
  pruneMinuteVolume,
  storeLogBatch,
  VOLUME_BATCH,
} from '../../server/src/resources/logs/index.ts';
import { copyLogGroups } from './seed-log-copies.ts';
// The accounts resource's reply helpers are typed by @fastify/cookie's augmentation.
import type {} from '@fastify/cookie';
import { createAccount } from '../../server/src/resources/accounts/index.ts';
import { createToken } from '../../server/src/resources/tokens/index.ts';
import { loadSessionAggregates } from '../../server/src/resources/release-health/index.ts';

/**
 * BENCH_SMOKE=1 (the bench's own test in `npm test`): the large data sets are seeded at a fiftieth
 * of their size, at least 2,000 rows (above the 1,000 where counts are capped, so capped answers
 * still show), with the scenarios' ids and labels unchanged. Such a run's figures measure nothing
 * (the report says `smoke: true`); the test asks only that every scenario answers right, and the
 * full sizes cost most of its time (seeding 100,000 ideas, log groups and 1,000,000 sessions).
 */
export const BENCH_SMOKE = process.env['BENCH_SMOKE'] === '1';
/** How many rows a data set of `nominal` rows gets in this run (see BENCH_SMOKE). */
export const seededSize = (nominal: number): number =>
  BENCH_SMOKE ? Math.min(nominal, Math.max(2000, nominal / 50)) : nominal;

export const BENCH_PROJECT_ID = 'bench';
/** A second project whose public board holds 1,000 ideas (the board issue's size). */
export const BENCH_BOARD_PROJECT_ID = 'bench-board';
export const BENCH_BOARD_IDEAS = 1000;

/** A third project with 100,000 log groups, read through the management API (the log explorer). */
export const BENCH_LOGS_PROJECT_ID = 'bench-logs';
/** `BENCH_LOG_GROUPS` sets another count (issue 37's soak asks 3,000,000). */
export const BENCH_LOG_GROUPS = Number(process.env['BENCH_LOG_GROUPS'] ?? 100_000);
/** The log groups' last-seen times spread over this many days before the seeding. */
export const BENCH_LOG_DAYS = 30;

/** The same project as `bench`, with a plan quota: every request is counted against it. */
export const BENCH_METERED_PROJECT_ID = 'bench-metered';
/** Far above what any run sends (a run at 50k req/s for an hour is 180 million). */
export const BENCH_METERED_QUOTA = 1_000_000_000;

/** Projects whose roadmaps hold this many public features each. */
export const BENCH_ROADMAP_SIZES = [100, 100_000] as const;
export const roadmapProjectId = (size: number) => `bench-roadmap-${size}`;

/** Projects whose 100 releases had this many sessions in all (the release page at scale, issue 33). */
export const BENCH_RELEASE_SESSIONS = [1000, 1_000_000] as const;
export const BENCH_RELEASES = 100;
export const releasesProjectId = (sessions: number) => `bench-releases-${sessions}`;
/** The version of release `i` (0 the oldest). */
export const benchReleaseVersion = (i: number) => `2.${i}.0`;

/** What to seed beyond the always-seeded projects: the expensive parts only when measured. */
export interface SeedOptions {
  /** Session counts to seed a releases project for (a project each); none when absent. */
  releaseSessions?: readonly number[];
  /** The 100,000 log groups of the log explorer's project (and the account that owns it). */
  logGroups: boolean;
  /** Roadmap sizes to seed (a project each). */
  roadmapSizes: readonly number[];
}

export interface BenchData {
  projectId: string;
  key: string;
  /** A live key of the metered project (same content as `projectId`). */
  meteredKey: string;
  /** The number of `projectId` in Sentry DSNs (`/api/<number>/envelope/`). */
  ingestNumber: number;
  /** A live key per seeded roadmap size. */
  roadmapKeys: Map<number, string>;
  /** A personal access token of the account that owns every bench project (management API). */
  managementToken?: string;
  logsProjectId?: string;
  /** A live key of the log explorer's project holding `logs:read`: the hosted MCP's caller. */
  logsMcpKey?: string;
}

const LEVELS = ['error', 'warn', 'info', 'debug', 'trace'] as const;
const WORDS = ['checkout', 'login', 'search', 'upload', 'export', 'billing', 'sync', 'render', 'cache', 'queue'];

/** The log explorer's groups (BENCH_LOG_GROUPS), their lines kept as a running server keeps them. */
async function seedLogGroups(db: Database, projectId: string): Promise<void> {
  const groups = seededSize(BENCH_LOG_GROUPS);
  // PostgreSQL's millions: a hundred thousand through the store, the rest copied set-wise.
  const copied = db.dialect === 'postgres' && groups > COPIED_FROM && groups % COPIED_FROM === 0;
  await storeLogGroups(db, projectId, copied ? COPIED_FROM : groups);
  await expireSeededLines(db, projectId);
  if (copied) await copyLogGroups(db, projectId, groups / COPIED_FROM - 1);
}

/** The server's default LOG_LINE_RETENTION_DAYS. */
const LINE_RETENTION_DAYS = 14;

/**
 * The groups' lines older than the retention, deleted as the server's lines worker
 * (packages/server/src/resources/logs/lines-worker.ts) would have
 * deleted them while those days went by: over 30 days about half the seeded lines are past 14
 * days, and a server started on the seed otherwise spent the soak deleting them (1,500,000 lines
 * at 3,000,000 groups, a batch of 1,000 up to 36 ms on the loop), a backlog no running server has.
 */
async function expireSeededLines(db: Database, projectId: string): Promise<void> {
  const before = new Date(Date.now() - LINE_RETENTION_DAYS * 86_400_000).toISOString();
  while ((await expireLines(db, projectId, before)) === LINE_BATCH);
  // Likewise the per-minute counts past MINUTE_VOLUME_HOURS (up to 70 ms a batch on the loop).
  const minutesBefore = new Date(Date.now() - MINUTE_VOLUME_HOURS * 3_600_000).toISOString().slice(0, 16);
  for (const unit of MINUTE_UNITS)
    while ((await pruneMinuteVolume(db, projectId, unit, minutesBefore)) === VOLUME_BATCH);
}

/** How many groups PostgreSQL writes through the store before copying them (seed-log-copies.ts). */
const COPIED_FROM = 100_000;

/**
 * Distinct log groups through the logs store (its batched upserts, as the public API writes them),
 * levels, categories and sources spread out, last seen over 30 days.
 */
async function storeLogGroups(db: Database, projectId: string, groups: number): Promise<void> {
  const now = Date.now();
  const step = (BENCH_LOG_DAYS * 86_400_000) / groups;
  const scope = { projectId, environment: 'live' as const };
  const BATCH = 100;
  const WAVE = 100;
  for (let wave = 0; wave < groups; wave += BATCH * WAVE) {
    const writes: Promise<void>[] = [];
    for (let from = wave; from < Math.min(wave + BATCH * WAVE, groups); from += BATCH) {
      const entries: LogEntry[] = [];
      for (let i = from; i < from + BATCH; i++) {
        entries.push({
          level: LEVELS[i % LEVELS.length]!,
          category: `category-${i % 20}`,
          source: `service-${i % 10}`,
          message: `Line ${i}: ${WORDS[i % WORDS.length]} step ${i % 97} took ${i % 500} ms`,
          data: { i, route: `/api/${WORDS[(i * 7) % WORDS.length]}/${i % 1000}` },
          timestamp: new Date(now - (groups - i) * step).toISOString(),
        });
      }
      writes.push(storeLogBatch(db, scope, entries, new Date(now)));
    }
    await Promise.all(writes);
  }
}

/** A project with the demo content and 60 more public features (a full default page of 50). */
async function seedContentProject(tx: Queryable, projectId: string, monthlyQuota: number | null): Promise<void> {
  await createProject(tx, {
    id: projectId,
    name: monthlyQuota === null ? 'Benchmark' : 'Benchmark (metered)',
    slug: projectId,
    defaultLocale: 'en',
    supportedLocales: ['en', 'de'],
    monthlyQuota,
  });
  await seedDemoProject(tx, projectId);
  for (let i = 0; i < 60; i++) {
    await insertFeature(
      tx,
      { projectId, environment: 'live' },
      {
        title: `Benchmark feature ${i}`,
        description: `A public feature request used by the benchmark, number ${i}.`,
        type: i % 4 === 0 ? 'bug' : 'feature',
        status: i % 4 === 0 ? 'new' : 'open',
        internal: false,
      },
    );
  }
}

/** The columns the features store's INSERT writes (`insertFeature`), in its order. */
const FEATURE_COLUMNS = [
  'id',
  'project_id',
  'environment',
  'title',
  'description',
  'type',
  'status',
  'internal',
  'channel',
  'contact_email',
  'metadata',
  'developer_notes',
  'vote_count',
  'comment_count',
  'created_at',
  'updated_at',
  'held',
  'board_user_id',
] as const;
/** 500 rows × 18 values per statement: under SQLite's 32,766 and PostgreSQL's 65,535 parameters. */
const BULK_ROWS = 500;

/**
 * `count` public features in one transaction, as multi-row INSERTs of the store's columns:
 * statuses spread over the roadmap's columns, votes spread so the order has work to do, created
 * over the last year. (insertFeature, one statement a row, would take minutes for 100,000.)
 */
async function seedRoadmapProject(tx: Queryable, projectId: string, count: number): Promise<void> {
  await createProject(tx, { id: projectId, name: `Roadmap of ${count}`, slug: projectId, monthlyQuota: null });
  // Its public board too (board-ideas-<size>, board-typo-<size>): the same ideas, server-rendered.
  await updateBoard(tx, projectId, { enabled: true });
  const now = Date.now();
  const rowSql = `(${FEATURE_COLUMNS.map(() => '?').join(', ')})`;
  for (let from = 0; from < count; from += BULK_ROWS) {
    const rows = Math.min(BULK_ROWS, count - from);
    const values: (string | number | null)[] = [];
    for (let i = from; i < from + rows; i++) {
      const created = new Date(now - (count - i) * ((365 * 86_400_000) / count)).toISOString();
      values.push(
        newId('feat'),
        projectId,
        'live',
        `Roadmap item ${i}: ${WORDS[i % WORDS.length]} ${WORDS[(i * 3) % WORDS.length]}`,
        `A public item on a large roadmap, number ${i}, described in a sentence or two like real ones.`,
        i % 5 === 0 ? 'bug' : 'feature',
        FILTER_STATUSES[i % FILTER_STATUSES.length]!,
        0,
        null,
        null,
        null,
        null,
        (i * 37) % 1000,
        i % 7,
        created,
        created,
        0,
        null,
      );
    }
    await tx.run(
      `INSERT INTO features (${FEATURE_COLUMNS.join(', ')}) VALUES ${Array.from({ length: rows }, () => rowSql).join(', ')}`,
      values,
    );
  }
  await seedValuedVotes(tx, projectId, count);
}

/** Companies with a revenue and their people, who vote on every 20th item: the inbox's value sort. */
export const VALUED_EVERY = 20;
const COMPANIES = 10;
const VOTERS = 50;

async function seedValuedVotes(tx: Queryable, projectId: string, count: number): Promise<void> {
  const now = new Date().toISOString();
  for (let c = 0; c < COMPANIES; c++) {
    await tx.run(
      `INSERT INTO companies (id, project_id, external_id, name, plan, monthly_revenue, created_at, updated_at)
       VALUES (?, ?, ?, ?, NULL, ?, ?, ?)`,
      [`co-${projectId}-${c}`, projectId, `company-${c}`, `Company ${c}`, (c + 1) * 100, now, now],
    );
  }
  for (let v = 0; v < VOTERS; v++) {
    const personId = `per-${projectId}-${v}`;
    await tx.run(
      `INSERT INTO people (id, project_id, company_id, first_seen_at, last_seen_at) VALUES (?, ?, ?, ?, ?)`,
      [personId, projectId, `co-${projectId}-${v % COMPANIES}`, now, now],
    );
    await tx.run(`INSERT INTO person_aliases (project_id, kind, value, person_id) VALUES (?, 'voter_id', ?, ?)`, [
      projectId,
      `valued-${projectId}-${v}`,
      personId,
    ]);
  }
  const ids = await tx.all<{ id: string }>('SELECT id FROM features WHERE project_id = ? ORDER BY created_at, id', [
    projectId,
  ]);
  const voted = ids.filter((_, i) => i % VALUED_EVERY === 0);
  for (let from = 0; from < voted.length; from += BULK_ROWS) {
    const chunk = voted.slice(from, from + BULK_ROWS);
    await tx.run(
      `INSERT INTO votes (feature_id, voter_id, created_at) VALUES ${chunk.map(() => '(?, ?, ?)').join(', ')}`,
      chunk.flatMap((row, i) => [row.id, `valued-${projectId}-${(from + i) % VOTERS}`, now]),
    );
  }
  // What the features store keeps on each vote, in one statement (as migration 202612200200 backfills).
  await tx.run(
    `UPDATE features SET value = (SELECT SUM(c.monthly_revenue) FROM votes v
       JOIN person_aliases a ON a.project_id = features.project_id AND a.kind = 'voter_id' AND a.value = v.voter_id
       JOIN people p ON p.id = a.person_id JOIN companies c ON c.id = p.company_id WHERE v.feature_id = features.id)
     WHERE project_id = ? AND id IN (SELECT feature_id FROM votes)`,
    [projectId],
  );
  void count;
}

/**
 * `total` sessions over 100 releases in the 13 days before now, written through the release-health
 * store as Sentry's `sessions` aggregates of new users (loadSessionAggregates: the rows the
 * intake's applySessionAggregate writes, the hour's counts, the user, the release's running
 * totals, in multi-row statements): release `i` appears at day 13 × i / 100 and takes an equal share
 * of the sessions, spread over its hours up to now in one aggregate per hour (1 in 50 errored, 1
 * in 200 crashed), each aggregate from one of 100,000 users. At 1,000 sessions a release has 10
 * hours with one session each; at 1,000,000, every hour of its life (5 to 313) with 10,000 in all.
 */
async function seedReleaseSessions(db: Database, projectId: string, total: number): Promise<void> {
  await createProject(db, { id: projectId, name: `Releases, ${total} sessions`, slug: projectId, monthlyQuota: null });
  const HOUR = 3600_000;
  const nowHour = Math.floor(Date.now() / HOUR) * HOUR;
  const span = 13 * 24;
  const scope = { projectId, environment: 'live' as const };
  let user = 0;
  for (let r = 0; r < BENCH_RELEASES; r++) {
    const firstHour = nowHour - span * HOUR + Math.floor((span * r) / BENCH_RELEASES) * HOUR;
    const hours = Math.min((nowHour - firstHour) / HOUR + 1, total / BENCH_RELEASES);
    const perRelease = total / BENCH_RELEASES;
    const aggregates: Parameters<typeof loadSessionAggregates>[2][number][] = [];
    for (let h = 0; h < hours; h++) {
      const sessions = Math.floor((perRelease * (h + 1)) / hours) - Math.floor((perRelease * h) / hours);
      const crashed = Math.floor(sessions / 200);
      const errored = Math.floor(sessions / 50);
      user = (user + 7919) % 100_000;
      aggregates.push({
        did: `user-${user}`,
        hour: new Date(firstHour + Math.floor((h * ((nowHour - firstHour) / HOUR + 1)) / hours) * HOUR).toISOString(),
        release: benchReleaseVersion(r),
        sdkEnvironment: 'production',
        healthy: sessions - crashed - errored,
        errored,
        unhandled: 0,
        abnormal: 0,
        crashed,
      });
    }
    // Every aggregate's user is new to the release (7919 steps through 100,000 users), so the
    // release's rows go in multi-row statements (loadSessionAggregates), not eight round trips each.
    await db.transaction((tx) => loadSessionAggregates(tx, scope, aggregates));
  }
}

export async function seedBenchDatabase(
  databaseUrl: string,
  dataDir: string,
  options: SeedOptions = { logGroups: true, roadmapSizes: BENCH_ROADMAP_SIZES },
): Promise<BenchData> {
  const db = openDatabase({ databaseUrl, dataDir });
  try {
    await migrate(db);
    const projectId = BENCH_PROJECT_ID;
    await db.transaction((tx) => seedContentProject(tx, projectId, null));
    await db.transaction((tx) => seedContentProject(tx, BENCH_METERED_PROJECT_ID, BENCH_METERED_QUOTA));
    const roadmapKeys = new Map<number, string>();
    for (const size of options.roadmapSizes) {
      await db.transaction((tx) => seedRoadmapProject(tx, roadmapProjectId(size), seededSize(size)));
      const roadmapKey = await createApiKey(db, roadmapProjectId(size), 'live', ALL_PUBLIC_SCOPES, {
        name: 'Benchmark',
      });
      roadmapKeys.set(size, roadmapKey.key);
    }
    await db.transaction(async (tx) => {
      const board = BENCH_BOARD_PROJECT_ID;
      await createProject(tx, { id: board, name: 'Benchmark board', slug: board, monthlyQuota: null });
      await updateBoard(tx, board, { enabled: true });
      const statuses = ['new', 'open', 'planned', 'in-progress', 'done'] as const;
      for (let i = 0; i < BENCH_BOARD_IDEAS; i++) {
        const row = await insertFeature(
          tx,
          { projectId: board, environment: 'live' },
          {
            title: `Board idea ${i}: ${['export', 'dark mode', 'shortcuts', 'calendar sync', 'offline'][i % 5]}`,
            description: `An idea on the benchmark's board, number ${i}, described in a sentence or two like real ones.`,
            type: i % 5 === 0 ? 'bug' : 'feature',
            status: statuses[i % statuses.length]!,
            internal: false,
          },
        );
        // Spread the votes so "top" has an order to compute.
        await tx.run('UPDATE features SET vote_count = ? WHERE id = ?', [(i * 37) % 500, row.id]);
      }
    });
    const key = (await createApiKey(db, projectId, 'live', ALL_PUBLIC_SCOPES, { name: 'Benchmark' })).key;
    const meteredKey = (
      await createApiKey(db, BENCH_METERED_PROJECT_ID, 'live', ALL_PUBLIC_SCOPES, { name: 'Benchmark' })
    ).key;
    const ingestNumber = Number((await findProject(db, projectId))!.ingest_number);
    // The management API's reads (the log explorer, the inbox of each roadmap project) need an account.
    const claimed = options.roadmapSizes.map(roadmapProjectId);
    for (const sessions of options.releaseSessions ?? []) {
      await seedReleaseSessions(db, releasesProjectId(sessions), seededSize(sessions));
      claimed.push(releasesProjectId(sessions));
    }
    let logsMcpKey: string | undefined;
    if (options.logGroups) {
      await createProject(db, {
        id: BENCH_LOGS_PROJECT_ID,
        name: 'Benchmark logs',
        slug: BENCH_LOGS_PROJECT_ID,
        monthlyQuota: null,
      });
      await seedLogGroups(db, BENCH_LOGS_PROJECT_ID);
      claimed.push(BENCH_LOGS_PROJECT_ID);
      logsMcpKey = (await createApiKey(db, BENCH_LOGS_PROJECT_ID, 'live', ['logs:read'], { name: 'Benchmark MCP' }))
        .key;
    }
    if (claimed.length === 0) return { projectId, key, meteredKey, ingestNumber, roadmapKeys };
    // The instance's first account takes over those projects (its team owns them).
    const account = await db.transaction((tx) =>
      createAccount(tx, {
        email: 'bench@example.com',
        name: 'Bench',
        passwordHash: null,
        verified: true,
        claimProjects: claimed,
      }),
    );
    const { token } = await createToken(db, account.id, 'Benchmark', undefined);
    return {
      projectId,
      key,
      meteredKey,
      ingestNumber,
      roadmapKeys,
      managementToken: token,
      ...(logsMcpKey ? { logsProjectId: BENCH_LOGS_PROJECT_ID, logsMcpKey } : {}),
    };
  } finally {
    await db.close();
  }
}
