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

export const BENCH_PROJECT_ID = 'bench';

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
    const key = (await createApiKey(db, projectId, 'live', ALL_PUBLIC_SCOPES, { name: 'Benchmark' })).key;
    return { projectId, key };
  } finally {
    await db.close();
  }
}
