/**
 * Project use cases the surfaces share: creating a project in a team; and those the audit log
 * records: changing a project's settings,
 * creating and revoking API keys (each in one transaction with its audit entry); and a project's
 * archive (issue 36): its rows of every table, as the full export writes them (src/db/archive.ts),
 * streamed page by page.
 */
import type { Writable } from 'node:stream';
import { exportArchive, type Manifest } from '../../db/archive.ts';
import { schemaVersion } from '../../db/migrate.ts';
import type { Database, SqlValue } from '../../db/database.ts';
import type { KeyEnvironment } from '../../kernel/api-keys.ts';
import { ConflictError } from '../../kernel/errors.ts';
import { changes, recordAudit } from '../audit/index.ts';
import { presentApiKey, slugify } from './presenter.ts';
import { type CreatedKey, createApiKey, findApiKey, revokeApiKey } from './store-keys.ts';
import {
  createProject,
  findProject,
  placeProjectInTeam,
  type ProjectRow,
  slugTaken,
  touchProjectConfig,
  touchProjectTranslations,
  updateProjectColumns,
} from './store.ts';

export const slugConflict = () => new ConflictError('Another project already uses this slug');

export interface NewProject {
  name: string;
  /** Omitted: one made from the name, with `-2`, `-3`, … when taken. Given and taken: 409. */
  slug: string | undefined;
  defaultLocale: string;
  supportedLocales: string[];
  monthlyQuota: number | null;
  plan: string | null;
}

/** Creates a project in a team; its id. A slug taken meanwhile (two creates racing) is a 409. */
export async function createProjectInTeam(db: Database, teamId: string, input: NewProject): Promise<string> {
  let slug = input.slug;
  if (slug === undefined) {
    const base = slugify(input.name);
    slug = base;
    for (let n = 2; await slugTaken(db, slug); n++) slug = `${base}-${n}`;
  } else if (await slugTaken(db, slug)) {
    throw slugConflict();
  }
  const chosen = slug;
  return db
    .transaction(async (tx) => {
      const project = await createProject(tx, { ...input, name: input.name.trim(), slug: chosen });
      await placeProjectInTeam(tx, project.id, teamId, input.plan);
      return project.id;
    })
    .catch(async (error: unknown) => {
      if (await slugTaken(db, chosen)) throw slugConflict();
      throw error;
    });
}

/** The settings the audit log shows of a project. */
function settingsOf(row: ProjectRow | undefined): Record<string, unknown> {
  if (!row) return {};
  return {
    name: row.name,
    slug: row.slug,
    defaultLocale: row.default_locale,
    supportedLocales: JSON.parse(row.supported_locales) as string[],
    plan: row.plan,
    monthlyQuota: row.monthly_quota === null ? null : Number(row.monthly_quota),
  };
}

/** Changes project columns (an Assignments' SET clause); a locales change rebuilds cached answers. */
export async function updateProjectSettings(
  db: Database,
  projectId: string,
  columns: { sql: string; params: SqlValue[] },
  options: { localesChange: boolean },
): Promise<void> {
  await db.transaction(async (tx) => {
    const before = settingsOf(await findProject(tx, projectId));
    await updateProjectColumns(tx, projectId, columns);
    if (options.localesChange) {
      // Translations fall back to the default locale: cached answers must be rebuilt.
      await touchProjectTranslations(tx, projectId);
      await touchProjectConfig(tx, projectId);
    }
    const changed = changes(before, settingsOf(await findProject(tx, projectId)));
    await recordAudit(tx, {
      projectId,
      action: 'project.settings_updated',
      target: { type: 'project', id: projectId },
      ...changed,
    });
  });
}

/** Creates a key; the plain key is in the answer only (the audit entry shows its prefix). */
export async function issueApiKey(
  db: Database,
  projectId: string,
  environment: KeyEnvironment,
  scopes: readonly string[],
  options: { name?: string; publishable?: boolean },
): Promise<CreatedKey> {
  return db.transaction(async (tx) => {
    const created = await createApiKey(tx, projectId, environment, scopes, options);
    const row = await findApiKey(tx, projectId, created.id);
    await recordAudit(tx, {
      projectId,
      action: 'api_key.created',
      target: { type: 'api_key', id: created.id },
      before: null,
      after: row ? presentApiKey(row) : null,
    });
    return created;
  });
}

/** Revokes a key; revoking one already revoked changes (and records) nothing. */
export async function withdrawApiKey(db: Database, projectId: string, keyId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const row = await findApiKey(tx, projectId, keyId);
    if (!row || row.revoked_at !== null) return;
    await revokeApiKey(tx, projectId, keyId);
    const after = await findApiKey(tx, projectId, keyId);
    await recordAudit(tx, {
      projectId,
      action: 'api_key.revoked',
      target: { type: 'api_key', id: keyId },
      before: presentApiKey(row),
      after: after ? presentApiKey(after) : null,
    });
  });
}

/** A project's archive, streamed to `out`. */
export async function exportProject(db: Database, projectId: string, out: Writable): Promise<Manifest> {
  return exportArchive(db, out, await schemaVersion(db), { projectId });
}
