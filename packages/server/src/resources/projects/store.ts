/** The one store of projects (api_keys: store-keys.ts). Reads joining team_members: read-model.ts. */
import { bool, type Database, type Queryable, type SqlValue } from '../../db/database.ts';
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
  /** The number in Sentry DSNs (`/api/<ingest_number>/envelope/`), given on insert by the database. */
  ingest_number: number;
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
  return (await findProject(db, id))!;
}

export async function findProject(db: Queryable, id: string): Promise<ProjectRow | undefined> {
  return db.get<ProjectRow>('SELECT * FROM projects WHERE id = ?', [id]);
}

/** Marks the project's configuration as changed: bumps `lastUpdated` and the cache version. */
export async function touchProjectConfig(db: Queryable, projectId: string): Promise<void> {
  await db.run('UPDATE projects SET config_version = config_version + 1, config_updated_at = ? WHERE id = ?', [
    nowIso(),
    projectId,
  ]);
}

export async function touchProjectTranslations(db: Queryable, projectId: string): Promise<void> {
  await db.run('UPDATE projects SET translations_version = translations_version + 1 WHERE id = ?', [projectId]);
}

/** Whether another project than `exceptId` uses the slug. */
export async function slugTaken(db: Queryable, slug: string, exceptId = ''): Promise<boolean> {
  return (await db.get('SELECT 1 AS found FROM projects WHERE slug = ? AND id <> ?', [slug, exceptId])) !== undefined;
}

/** Places a new project in its team, with the plan the owner chose (else the default). */
export async function placeProjectInTeam(
  db: Queryable,
  projectId: string,
  teamId: string,
  plan: string | null,
): Promise<void> {
  await db.run('UPDATE projects SET team_id = ?, plan = COALESCE(?, plan) WHERE id = ?', [teamId, plan, projectId]);
}

/** Changes the given columns of a project (`sql` is an Assignments' SET clause of project columns). */
export async function updateProjectColumns(
  db: Queryable,
  projectId: string,
  columns: { sql: string; params: SqlValue[] },
): Promise<void> {
  await db.run(`UPDATE projects SET ${columns.sql} WHERE id = ?`, [...columns.params, projectId]);
}

// The project columns other resources keep (locales: translations; debug mode: site config;
// team: accounts) are written here, through these, so `projects` has one store.

export interface ProjectLocales {
  defaultLocale: string;
  supportedLocales: string[];
}

export async function readProjectLocales(db: Queryable, projectId: string): Promise<ProjectLocales | undefined> {
  const row = await db.get<{ default_locale: string; supported_locales: string }>(
    'SELECT default_locale, supported_locales FROM projects WHERE id = ?',
    [projectId],
  );
  return row
    ? { defaultLocale: row.default_locale, supportedLocales: JSON.parse(row.supported_locales) as string[] }
    : undefined;
}

export async function writeProjectLocales(db: Queryable, projectId: string, locales: ProjectLocales): Promise<void> {
  await db.run('UPDATE projects SET default_locale = ?, supported_locales = ? WHERE id = ?', [
    locales.defaultLocale,
    JSON.stringify(locales.supportedLocales),
    projectId,
  ]);
}

export async function setProjectDebugMode(db: Queryable, projectId: string, enabled: boolean): Promise<void> {
  await db.run('UPDATE projects SET debug_mode = ? WHERE id = ?', [bool(enabled), projectId]);
}

/** Gives a project without a team to this one (the first admin claims the projects made before accounts). */
export async function claimProjectForTeam(db: Queryable, projectId: string, teamId: string): Promise<void> {
  await db.run('UPDATE projects SET team_id = ? WHERE id = ? AND team_id IS NULL', [teamId, projectId]);
}

export type { Database };
