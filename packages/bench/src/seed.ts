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

export const BENCH_PROJECT_ID = 'bench';
/** A second project whose public board holds 1,000 ideas (the board issue's size). */
export const BENCH_BOARD_PROJECT_ID = 'bench-board';
export const BENCH_BOARD_IDEAS = 1000;

export interface BenchData {
  projectId: string;
  key: string;
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
    return { projectId, key };
  } finally {
    await db.close();
  }
}
