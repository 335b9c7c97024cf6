/**
 * The one store of a project's site configuration: maintenance_settings, status_messages,
 * feature_flags and environments. Every write runs in a transaction together with
 * touchProjectConfig, which moves `lastUpdated` and the version the public GET /site-config
 * cache watches, so no reader ever sees new content with an old `lastUpdated` or ETag.
 *
 * The two writes that land on the projects table (the config version bump and debug mode) run
 * inside these transactions through the projects resource's index, which owns that table.
 */
import { bool, type Database, type Queryable } from '../../db/database.ts';
import { setProjectDebugMode, touchProjectConfig } from '../projects/index.ts';
import { newId, nowIso } from '../../kernel/ids.ts';
import { Assignments } from '../../db/assignments.ts';

/** Runs `fn` and marks the configuration as changed when it reports a change. */
export async function configWrite<T>(
  db: Database,
  projectId: string,
  fn: (tx: Queryable) => Promise<T | undefined>,
): Promise<T | undefined> {
  return db.transaction(async (tx) => {
    const result = await fn(tx);
    if (result !== undefined && result !== false) await touchProjectConfig(tx, projectId);
    return result;
  });
}

export interface MaintenanceRow {
  project_id: string;
  enabled: number;
  type: 'full' | 'banner' | 'custom';
  custom_html: string | null;
  expected_restoration: string | null;
  show_status_link: number;
  status_page_url: string | null;
  whitelist: string;
}

export interface MaintenanceChanges {
  enabled?: boolean | undefined;
  type?: 'full' | 'banner' | 'custom' | undefined;
  customHtml?: string | null | undefined;
  expectedRestoration?: string | null | undefined;
  showStatusLink?: boolean | undefined;
  statusPageUrl?: string | null | undefined;
  whitelist?: { localStorageKeys: string[]; emails: string[]; ips: string[] } | undefined;
}

/** What the public GET /site-config reads: maintenance, active messages, flags, environments. */
export async function readPublicConfigRows(db: Queryable, projectId: string) {
  const [maintenance, messages, flags, environments] = await Promise.all([
    readMaintenance(db, projectId),
    db.all<MessageRow>(
      'SELECT * FROM status_messages WHERE project_id = ? AND is_active = 1 ORDER BY priority DESC, created_at DESC, id',
      [projectId],
    ),
    db.all<FlagRow>('SELECT * FROM feature_flags WHERE project_id = ? ORDER BY key', [projectId]),
    db.all<EnvironmentRow>('SELECT * FROM environments WHERE project_id = ? ORDER BY position, name', [projectId]),
  ]);
  return { maintenance, messages, flags, environments };
}

/**
 * A project's maintenance settings. A project has no row until its settings first change
 * (updateMaintenance writes it): until then the column defaults below are its settings, so
 * creating a project writes nothing here.
 */
export async function readMaintenance(db: Queryable, projectId: string): Promise<MaintenanceRow> {
  const row = await db.get<MaintenanceRow>('SELECT * FROM maintenance_settings WHERE project_id = ?', [projectId]);
  return (
    row ?? {
      project_id: projectId,
      enabled: 0,
      type: 'full',
      custom_html: null,
      expected_restoration: null,
      show_status_link: 0,
      status_page_url: null,
      whitelist: '{"localStorageKeys":[],"emails":[],"ips":[]}',
    }
  );
}

export async function updateMaintenance(tx: Queryable, projectId: string, changes: MaintenanceChanges): Promise<true> {
  // A project gets its row on its first change (see readMaintenance).
  await tx.run('INSERT INTO maintenance_settings (project_id) VALUES (?) ON CONFLICT (project_id) DO NOTHING', [
    projectId,
  ]);
  const columns = new Assignments();
  columns.set('enabled', changes.enabled === undefined ? undefined : bool(changes.enabled));
  columns.set('type', changes.type);
  columns.set('custom_html', changes.customHtml);
  columns.set('expected_restoration', changes.expectedRestoration);
  columns.set('show_status_link', changes.showStatusLink === undefined ? undefined : bool(changes.showStatusLink));
  columns.set('status_page_url', changes.statusPageUrl);
  columns.set('whitelist', changes.whitelist === undefined ? undefined : JSON.stringify(changes.whitelist));
  if (!columns.empty)
    await tx.run(`UPDATE maintenance_settings SET ${columns.sql} WHERE project_id = ?`, [...columns.params, projectId]);
  return true;
}

export async function setDebugMode(tx: Queryable, projectId: string, enabled: boolean): Promise<true> {
  await setProjectDebugMode(tx, projectId, enabled);
  return true;
}

// Status messages.

export interface MessageRow {
  id: string;
  project_id: string;
  type: 'info' | 'success' | 'warning' | 'error';
  text: string;
  is_active: number;
  priority: number;
  starts_at: string | null;
  expires_at: string | null;
  created_at: string;
}

export interface MessageFields {
  type?: MessageRow['type'] | undefined;
  text?: string | undefined;
  isActive?: boolean | undefined;
  priority?: number | undefined;
  startsAt?: string | null | undefined;
  expiresAt?: string | null | undefined;
}

export async function listMessages(db: Queryable, projectId: string): Promise<MessageRow[]> {
  return db.all<MessageRow>(
    'SELECT * FROM status_messages WHERE project_id = ? ORDER BY priority DESC, created_at DESC, id',
    [projectId],
  );
}

export async function getMessage(db: Queryable, projectId: string, id: string): Promise<MessageRow | undefined> {
  return db.get<MessageRow>('SELECT * FROM status_messages WHERE id = ? AND project_id = ?', [id, projectId]);
}

export async function insertMessage(
  tx: Queryable,
  projectId: string,
  input: Required<Pick<MessageFields, 'type' | 'text'>> & MessageFields,
): Promise<string> {
  const id = newId('msg');
  await tx.run(
    `INSERT INTO status_messages (id, project_id, type, text, is_active, priority, starts_at, expires_at, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      id,
      projectId,
      input.type,
      input.text,
      bool(input.isActive ?? true),
      input.priority ?? 0,
      input.startsAt ?? null,
      input.expiresAt ?? null,
      nowIso(),
    ],
  );
  return id;
}

export async function updateMessage(
  tx: Queryable,
  projectId: string,
  id: string,
  changes: MessageFields,
): Promise<boolean | undefined> {
  const columns = new Assignments();
  columns.set('type', changes.type);
  columns.set('text', changes.text);
  columns.set('is_active', changes.isActive === undefined ? undefined : bool(changes.isActive));
  columns.set('priority', changes.priority);
  columns.set('starts_at', changes.startsAt);
  columns.set('expires_at', changes.expiresAt);
  if (columns.empty) return (await getMessage(tx, projectId, id)) ? true : undefined;
  const { changes: n } = await tx.run(`UPDATE status_messages SET ${columns.sql} WHERE id = ? AND project_id = ?`, [
    ...columns.params,
    id,
    projectId,
  ]);
  return n === 1 ? true : undefined;
}

export async function deleteMessage(tx: Queryable, projectId: string, id: string): Promise<true | undefined> {
  const { changes } = await tx.run('DELETE FROM status_messages WHERE id = ? AND project_id = ?', [id, projectId]);
  return changes === 1 ? true : undefined;
}

// Feature flags, addressed by their key.

export interface FlagRow {
  id: string;
  project_id: string;
  key: string;
  enabled: number;
  /** 'boolean' | 'string' | 'number' | 'object' (flag-targeting.ts). */
  value_type: string;
  /** JSON: value per environment, rollout, rules (flag-targeting.ts). */
  targeting: string;
  created_at: string;
}

export async function listFlags(db: Queryable, projectId: string): Promise<FlagRow[]> {
  return db.all<FlagRow>('SELECT * FROM feature_flags WHERE project_id = ? ORDER BY key', [projectId]);
}

export async function getFlag(db: Queryable, projectId: string, key: string): Promise<FlagRow | undefined> {
  return db.get<FlagRow>('SELECT * FROM feature_flags WHERE project_id = ? AND key = ?', [projectId, key]);
}

/**
 * Creates the flag or sets its state in one upsert, which also returns the row: no window in
 * which a racing DELETE leaves nothing to answer with. `created` tells which (the row keeps the
 * id offered only when it was inserted).
 */
export async function putFlag(
  tx: Queryable,
  projectId: string,
  key: string,
  enabled: boolean,
  typed: { valueType: string; targeting: string } = { valueType: 'boolean', targeting: '{}' },
): Promise<{ created: boolean; row: FlagRow }> {
  const id = newId('flag');
  const [row] = await tx.all<FlagRow>(
    `INSERT INTO feature_flags (id, project_id, key, enabled, value_type, targeting, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (project_id, key) DO UPDATE SET enabled = excluded.enabled, value_type = excluded.value_type,
       targeting = excluded.targeting RETURNING *`,
    [id, projectId, key, bool(enabled), typed.valueType, typed.targeting, nowIso()],
  );
  return { created: row!.id === id, row: row! };
}

export async function deleteFlag(tx: Queryable, projectId: string, key: string): Promise<true | undefined> {
  const { changes } = await tx.run('DELETE FROM feature_flags WHERE project_id = ? AND key = ?', [projectId, key]);
  return changes === 1 ? true : undefined;
}

// Environments.

export interface EnvironmentRow {
  id: string;
  project_id: string;
  name: string;
  slug: string;
  url: string;
  color: string;
  debug_enabled: number;
  position: number;
  created_at: string;
}

export interface EnvironmentFields {
  name?: string | undefined;
  slug?: string | undefined;
  url?: string | undefined;
  color?: string | undefined;
  debugEnabled?: boolean | undefined;
  position?: number | undefined;
}

export async function listEnvironments(db: Queryable, projectId: string): Promise<EnvironmentRow[]> {
  return db.all<EnvironmentRow>('SELECT * FROM environments WHERE project_id = ? ORDER BY position, name', [projectId]);
}

/** By id or by slug. */
export async function getEnvironment(
  db: Queryable,
  projectId: string,
  idOrSlug: string,
): Promise<EnvironmentRow | undefined> {
  return db.get<EnvironmentRow>(
    'SELECT * FROM environments WHERE project_id = ? AND (id = ? OR slug = ?) ORDER BY id LIMIT 1',
    [projectId, idOrSlug, idOrSlug],
  );
}

export async function slugTaken(db: Queryable, projectId: string, slug: string, exceptId?: string): Promise<boolean> {
  const row = await db.get('SELECT id FROM environments WHERE project_id = ? AND slug = ? AND id <> ?', [
    projectId,
    slug,
    exceptId ?? '',
  ]);
  return row !== undefined;
}

export async function insertEnvironment(
  tx: Queryable,
  projectId: string,
  input: Required<Pick<EnvironmentFields, 'name' | 'slug'>> & EnvironmentFields,
): Promise<string> {
  const id = newId('env');
  const last = await tx.get<{ position: number | null }>(
    'SELECT MAX(position) AS position FROM environments WHERE project_id = ?',
    [projectId],
  );
  await tx.run(
    `INSERT INTO environments (id, project_id, name, slug, url, color, debug_enabled, position, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      id,
      projectId,
      input.name,
      input.slug,
      input.url ?? '',
      (input.color ?? '#6b7280').toLowerCase(),
      bool(input.debugEnabled ?? false),
      input.position ?? Number(last?.position ?? -1) + 1,
      nowIso(),
    ],
  );
  return id;
}

export async function updateEnvironment(
  tx: Queryable,
  projectId: string,
  id: string,
  changes: EnvironmentFields,
): Promise<true | undefined> {
  const columns = new Assignments();
  columns.set('name', changes.name);
  columns.set('slug', changes.slug);
  columns.set('url', changes.url);
  columns.set('color', changes.color?.toLowerCase());
  columns.set('debug_enabled', changes.debugEnabled === undefined ? undefined : bool(changes.debugEnabled));
  columns.set('position', changes.position);
  if (columns.empty)
    return (await tx.get('SELECT id FROM environments WHERE id = ? AND project_id = ?', [id, projectId]))
      ? true
      : undefined;
  const { changes: n } = await tx.run(`UPDATE environments SET ${columns.sql} WHERE id = ? AND project_id = ?`, [
    ...columns.params,
    id,
    projectId,
  ]);
  return n === 1 ? true : undefined;
}

export async function deleteEnvironment(tx: Queryable, projectId: string, id: string): Promise<true | undefined> {
  const { changes } = await tx.run('DELETE FROM environments WHERE id = ? AND project_id = ?', [id, projectId]);
  return changes === 1 ? true : undefined;
}
