import { bool, type Database, type Queryable } from '../../db/database.ts';
import { generateApiKey, hashApiKey, lookupOf, type KeyEnvironment } from '../../kernel/api-keys.ts';
import { newId, nowIso } from '../../kernel/ids.ts';

export interface ProjectRow {
  id: string;
  name: string;
  slug: string;
  default_locale: string;
  supported_locales: string;
  plan: string;
  monthly_quota: number | null;
  debug_mode: number;
  config_version: number;
  config_updated_at: string;
  translations_version: number;
  created_at: string;
}

// The one list lives in the kernel; re-exported for the callers that create keys.
export { ALL_KEY_SCOPES, ALL_PUBLIC_SCOPES } from '../../kernel/key-scopes.ts';

export interface NewProject {
  id?: string;
  name: string;
  slug: string;
  defaultLocale?: string;
  supportedLocales?: string[];
  monthlyQuota?: number | null;
}

export async function createProject(db: Queryable, input: NewProject): Promise<ProjectRow> {
  const now = nowIso();
  const id = input.id ?? newId('proj');
  const defaultLocale = input.defaultLocale ?? 'en';
  const supported = input.supportedLocales ?? [defaultLocale];
  await db.run(
    `INSERT INTO projects (id, name, slug, default_locale, supported_locales, monthly_quota, config_updated_at, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    [id, input.name, input.slug, defaultLocale, JSON.stringify(supported), input.monthlyQuota ?? null, now, now],
  );
  await db.run('INSERT INTO maintenance_settings (project_id) VALUES (?)', [id]);
  return (await findProject(db, id))!;
}

export async function findProject(db: Queryable, id: string): Promise<ProjectRow | undefined> {
  return db.get<ProjectRow>('SELECT * FROM projects WHERE id = ?', [id]);
}

export interface CreatedKey {
  id: string;
  key: string;
  environment: KeyEnvironment;
  scopes: string[];
  publishable: boolean;
}

/**
 * Creates an API key; the plain key is returned once and only its hash is stored. A publishable
 * key (made to be embedded in a page) may not change existing items; keys are secret by default.
 */
export async function createApiKey(
  db: Queryable,
  projectId: string,
  environment: KeyEnvironment,
  scopes: readonly string[],
  options: { name?: string; key?: string; publishable?: boolean } = {},
): Promise<CreatedKey> {
  const key = options.key ?? generateApiKey(environment);
  const id = newId('key');
  const publishable = options.publishable ?? false;
  await db.run(
    `INSERT INTO api_keys (id, project_id, environment, lookup, secret_hash, scopes, name, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    [id, projectId, environment, lookupOf(key), hashApiKey(key), JSON.stringify(scopes), options.name ?? '', nowIso()],
  );
  // A secret key leaves the column at its default, so this still writes keys into a database
  // from before publishable keys (the upgrade tests write an older server's data with it).
  if (publishable) await db.run('UPDATE api_keys SET publishable = ? WHERE id = ?', [bool(publishable), id]);
  return { id, key, environment, scopes: [...scopes], publishable };
}

/** Marks the project's configuration as changed: bumps `lastUpdated` and the cache version. */
export async function touchProjectConfig(db: Queryable, projectId: string): Promise<void> {
  await db.run(
    'UPDATE projects SET config_version = config_version + 1, config_updated_at = ? WHERE id = ?',
    [nowIso(), projectId],
  );
}

export async function touchProjectTranslations(db: Queryable, projectId: string): Promise<void> {
  await db.run('UPDATE projects SET translations_version = translations_version + 1 WHERE id = ?', [projectId]);
}

export type { Database };

/** The team takes over those of the projects that no team owns yet (the instance's first account, the seeded projects). */
export async function claimUnownedProjects(db: Queryable, teamId: string, projectIds: readonly string[]): Promise<void> {
  for (const projectId of projectIds) {
    await db.run('UPDATE projects SET team_id = ? WHERE id = ? AND team_id IS NULL', [teamId, projectId]);
  }
}
