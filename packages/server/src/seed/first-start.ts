import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { withStartupLock } from '../db/migrate.ts';
import { lookupOf } from '../kernel/api-keys.ts';
import {
  ALL_PUBLIC_SCOPES,
  createApiKey,
  createProject,
  findProject,
  restorePublishableKey,
  revokeKeyByLookup,
} from '../resources/projects/index.ts';
import { boardExists, updateBoard } from '../resources/board/index.ts';
import { seedDemoProject } from './demo.ts';

export const DEMO_PROJECT_ID = 'demo';
export const DEMO_SCOPES = ['public:read', 'features:read', 'features:write'] as const;

export interface SeedResult {
  demo?: { projectId: string; apiKey: string };
}

/**
 * Creates the platform project (Signpost's own board) and, unless turned off, the demo
 * project with its public key and sample data. Idempotent: runs at every start.
 */
export async function seedOnFirstStart(db: Database, config: Config): Promise<SeedResult> {
  // One transaction under the start-up lock: processes starting together on an empty
  // database create each project exactly once.
  return withStartupLock(db, async (tx) => {
    if (!(await findProject(tx, config.platformProjectId))) {
      await createProject(tx, { id: config.platformProjectId, name: 'Signpost', slug: config.platformProjectId });
    }
    const demoKeyLookup = lookupOf(config.demoApiKey);
    if (!config.demoEnabled) {
      await revokeKeyByLookup(tx, demoKeyLookup);
      return {};
    }
    if (!(await findProject(tx, DEMO_PROJECT_ID))) {
      await createProject(tx, {
        id: DEMO_PROJECT_ID,
        name: 'Demo',
        slug: DEMO_PROJECT_ID,
        defaultLocale: 'en',
        supportedLocales: ['en', 'de'],
        // The demo key is public, so its project has a plan quota.
        monthlyQuota: 100_000,
      });
      await createApiKey(tx, DEMO_PROJECT_ID, 'live', DEMO_SCOPES, {
        name: 'Public demo key',
        key: config.demoApiKey,
        publishable: true,
      });
      await seedDemoProject(tx, DEMO_PROJECT_ID);
    }
    // The demo board is on and public (decisions.md, "Web surfaces"), also for a demo project made
    // before boards existed; once its settings are written, they are the team's to change.
    if (!(await boardExists(tx, DEMO_PROJECT_ID))) {
      await updateBoard(tx, DEMO_PROJECT_ID, { enabled: true, private: false });
    }
    // A key from an earlier run with DEMO_ENABLED=false comes back to life. It is printed and
    // published, so it is publishable whatever an older version made it.
    await restorePublishableKey(tx, demoKeyLookup);
    return { demo: { projectId: DEMO_PROJECT_ID, apiKey: config.demoApiKey } };
  });
}

export { ALL_PUBLIC_SCOPES };
