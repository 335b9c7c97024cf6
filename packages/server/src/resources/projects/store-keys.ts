/** The one store of api_keys: creation, the management list and revocation, and the lookup that authenticates a key. */
import { bool, isTrue, type Queryable } from '../../db/database.ts';
import type { KeyRecord } from '../../http/authenticate.ts';
import { generateApiKey, hashApiKey, lookupOf, type KeyEnvironment } from '../../kernel/api-keys.ts';
import { newId, nowIso } from '../../kernel/ids.ts';
import type { ProjectRow } from './store.ts';

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

export interface KeyRow {
  id: string;
  name: string;
  environment: KeyEnvironment;
  lookup: string;
  scopes: string;
  publishable: number | boolean;
  created_at: string;
  revoked_at: string | null;
}

const COLUMNS = 'id, name, environment, lookup, scopes, publishable, created_at, revoked_at';

export async function findApiKey(db: Queryable, projectId: string, keyId: string): Promise<KeyRow | undefined> {
  return db.get<KeyRow>(`SELECT ${COLUMNS} FROM api_keys WHERE id = ? AND project_id = ?`, [keyId, projectId]);
}

/** A project's keys, newest first, revoked ones included. */
export async function listApiKeys(db: Queryable, projectId: string): Promise<KeyRow[]> {
  return db.all<KeyRow>(`SELECT ${COLUMNS} FROM api_keys WHERE project_id = ? ORDER BY created_at DESC, id DESC`, [
    projectId,
  ]);
}

/** Revokes a key of the project; one already revoked keeps its time. */
export async function revokeApiKey(db: Queryable, projectId: string, keyId: string): Promise<void> {
  await db.run('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND project_id = ? AND revoked_at IS NULL', [
    nowIso(),
    keyId,
    projectId,
  ]);
}

/** Revokes the key with this lookup part, if it is not already (the demo key when the demo is off). */
export async function revokeKeyByLookup(db: Queryable, lookup: string): Promise<void> {
  await db.run('UPDATE api_keys SET revoked_at = ? WHERE lookup = ? AND revoked_at IS NULL', [nowIso(), lookup]);
}

/** Brings the key with this lookup part back to life, as a publishable key (the demo key). */
export async function restorePublishableKey(db: Queryable, lookup: string): Promise<void> {
  await db.run('UPDATE api_keys SET revoked_at = NULL, publishable = 1 WHERE lookup = ?', [lookup]);
}

interface LookupRow extends ProjectRow {
  key_id: string;
  key_environment: KeyEnvironment;
  secret_hash: string;
  scopes: string;
  publishable: number | boolean;
  revoked_at: string | null;
}

/** The key with this lookup part and its whole project row: what authentication checks a key against. */
export async function findKeyByLookup(db: Queryable, lookup: string): Promise<KeyRecord<ProjectRow> | undefined> {
  const row = await db.get<LookupRow>(
    `SELECT p.*, k.id AS key_id, k.environment AS key_environment, k.secret_hash, k.scopes, k.publishable, k.revoked_at
       FROM api_keys k JOIN projects p ON p.id = k.project_id
      WHERE k.lookup = ?`,
    [lookup],
  );
  if (!row) return undefined;
  const { key_id, key_environment, secret_hash, scopes, publishable, revoked_at, ...project } = row;
  return {
    keyId: key_id,
    environment: key_environment,
    secretHash: secret_hash,
    scopes: JSON.parse(scopes) as string[],
    publishable: isTrue(publishable),
    revoked: revoked_at !== null,
    project,
  };
}
