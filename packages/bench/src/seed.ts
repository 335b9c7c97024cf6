/**
 * The benchmark's data: a fresh SQLite database with the server's migrations, a project with
 * no plan quota (so no quota write happens per request), a live key with every public scope,
 * the demo content (site config, translations in two locales) and a full page of features.
 */
import { migrate } from '../../server/src/db/migrate.ts';
import { openDatabase } from '../../server/src/db/open.ts';
import { insertFeature } from '../../server/src/resources/features/index.ts';
import { ALL_PUBLIC_SCOPES, createApiKey, createProject } from '../../server/src/resources/projects/index.ts';
import { seedDemoProject } from '../../server/src/seed/demo.ts';
import { updateBoard } from '../../server/src/resources/board/index.ts';
import { storeLogBatch, type LogEntry } from '../../server/src/resources/logs/index.ts';
// The accounts resource's reply helpers are typed by @fastify/cookie's augmentation.
import type {} from '@fastify/cookie';
import { createAccount } from '../../server/src/resources/accounts/index.ts';
import { createToken } from '../../server/src/resources/tokens/index.ts';

export const BENCH_PROJECT_ID = 'bench';
/** A second project whose public board holds 1,000 ideas (the board issue's size). */
export const BENCH_BOARD_PROJECT_ID = 'bench-board';
export const BENCH_BOARD_IDEAS = 1000;

/** A third project with 100,000 log groups, read through the management API (the log explorer). */
export const BENCH_LOGS_PROJECT_ID = 'bench-logs';
export const BENCH_LOG_GROUPS = 100_000;
/** The log groups' last-seen times spread over this many days before the seeding. */
export const BENCH_LOG_DAYS = 30;

export interface BenchData {
  projectId: string;
  key: string;
  /** A personal access token of the account that owns every bench project (management API). */
  managementToken?: string;
  logsProjectId?: string;
}

const LEVELS = ['error', 'warn', 'info', 'debug', 'trace'] as const;
const WORDS = ['checkout', 'login', 'search', 'upload', 'export', 'billing', 'sync', 'render', 'cache', 'queue'];

/**
 * 100,000 distinct log groups through the logs store (its batched upserts, as the public API
 * writes them), levels, categories and sources spread out, last seen over 30 days.
 */
async function seedLogGroups(db: Parameters<typeof storeLogBatch>[0], projectId: string): Promise<void> {
  const now = Date.now();
  const step = (BENCH_LOG_DAYS * 86_400_000) / BENCH_LOG_GROUPS;
  const scope = { projectId, environment: 'live' as const };
  const BATCH = 100;
  const WAVE = 100;
  for (let wave = 0; wave < BENCH_LOG_GROUPS; wave += BATCH * WAVE) {
    const writes: Promise<void>[] = [];
    for (let from = wave; from < Math.min(wave + BATCH * WAVE, BENCH_LOG_GROUPS); from += BATCH) {
      const entries: LogEntry[] = [];
      for (let i = from; i < from + BATCH; i++) {
        entries.push({
          level: LEVELS[i % LEVELS.length]!,
          category: `category-${i % 20}`,
          source: `service-${i % 10}`,
          message: `Line ${i}: ${WORDS[i % WORDS.length]} step ${i % 97} took ${i % 500} ms`,
          data: { i, route: `/api/${WORDS[(i * 7) % WORDS.length]}/${i % 1000}` },
          timestamp: new Date(now - (BENCH_LOG_GROUPS - i) * step).toISOString(),
        });
      }
      writes.push(storeLogBatch(db, scope, entries, new Date(now)));
    }
    await Promise.all(writes);
  }
}

export async function seedBenchDatabase(databaseUrl: string, dataDir: string): Promise<BenchData> {
  const db = openDatabase({ databaseUrl, dataDir });
  try {
    await migrate(db);
    const projectId = BENCH_PROJECT_ID;
    await db.transaction(async (tx) => {
      await createProject(tx, {
        id: projectId,
        name: 'Benchmark',
        slug: projectId,
        defaultLocale: 'en',
        supportedLocales: ['en', 'de'],
        monthlyQuota: null,
      });
      await seedDemoProject(tx, projectId);
      // 60 more public features: GET /features answers a full default page of 50 items.
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
    });
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
    await createProject(db, {
      id: BENCH_LOGS_PROJECT_ID,
      name: 'Benchmark logs',
      slug: BENCH_LOGS_PROJECT_ID,
      monthlyQuota: null,
    });
    await seedLogGroups(db, BENCH_LOGS_PROJECT_ID);
    // The instance's first account takes over the log explorer's project (its team owns it).
    const account = await db.transaction((tx) =>
      createAccount(tx, {
        email: 'bench@example.com',
        name: 'Bench',
        passwordHash: null,
        verified: true,
        claimProjects: [BENCH_LOGS_PROJECT_ID],
      }),
    );
    const { token } = await createToken(db, account.id, 'Benchmark', undefined);
    return { projectId, key, managementToken: token, logsProjectId: BENCH_LOGS_PROJECT_ID };
  } finally {
    await db.close();
  }
}
