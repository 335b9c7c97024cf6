/**
 * The audit log's use cases. `recordAudit` is what every audited use case calls, in the
 * transaction of its change, so an action and its entry commit or roll back together; the caller
 * (account, key, grant or system, and the surface) comes from the request (kernel/actor.ts), so a
 * use case is covered on every surface by one call.
 */
import type { Database, Queryable } from '../../db/database.ts';
import { currentActor } from '../../kernel/actor.ts';
import { newId, nowIso } from '../../kernel/ids.ts';
import {
  anyOlderThan,
  type AuditCursor,
  type AuditFilter,
  type AuditRow,
  getRetention,
  insertEntry,
  listEntries,
  pruneDefaultBatch,
  pruneProjectBatch,
  putRetention,
  retentionSettings,
} from './store.ts';

export const DEFAULT_RETENTION_DAYS = 365;
export const REDACTED = '[redacted]';

export interface AuditInput {
  /** The project acted on; null for a team-wide action (then `teamId`). */
  projectId: string | null;
  teamId?: string | null;
  /** `<target type>.<verb>`, e.g. `flag.updated`, `api_key.revoked`. */
  action: string;
  target: { type: string; id?: string | null };
  /** The target's state before (null or left out: it did not exist). */
  before?: unknown;
  /** The target's state after (null or left out: it is gone). */
  after?: unknown;
}

/** Names whose values never reach the log: secrets, tokens, passwords, API keys. */
const SECRET_NAME = /secret|password|token|credential|apikey|privatekey|signing/i;
/** Signpost's own secrets by their look (API keys, personal access tokens, webhook secrets), whatever the field. */
const SECRET_VALUE = /(svc_(live|test)_|sp_pat_|whsec_)[A-Za-z0-9+/_-]{30,}/;

/** A copy of `value` with every secret-named field's value, and every secret-looking string, replaced. */
export function redact(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return SECRET_VALUE.test(value) ? REDACTED : value;
  if (depth > 20 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1));
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([name, field]) => [
      name,
      SECRET_NAME.test(name) && field !== null && field !== undefined ? REDACTED : redact(field, depth + 1),
    ]),
  );
}

/**
 * The fields of `before` and `after` that differ (objects compared by their JSON), so an entry of
 * a settings change shows what changed, not the whole row twice.
 */
export function changes(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): { before: Record<string, unknown>; after: Record<string, unknown> } {
  const was: Record<string, unknown> = {};
  const is: Record<string, unknown> = {};
  for (const name of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (JSON.stringify(before[name]) === JSON.stringify(after[name])) continue;
    was[name] = before[name] ?? null;
    is[name] = after[name] ?? null;
  }
  return { before: was, after: is };
}

const json = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(redact(value)));

/** Records one action in `tx`. An update that changed nothing records nothing. */
export async function recordAudit(tx: Queryable, input: AuditInput): Promise<void> {
  const before = json(input.before);
  const after = json(input.after);
  if (before !== null && before === after) return;
  const actor = currentActor();
  await insertEntry(tx, {
    id: newId('aud'),
    team_id: input.projectId === null ? (input.teamId ?? null) : null,
    project_id: input.projectId,
    at: nowIso(),
    actor_type: actor.type,
    actor_id: actor.id,
    actor_label: actor.label,
    via: actor.via,
    action: input.action,
    target_type: input.target.type,
    target_id: input.target.id ?? null,
    before_state: before,
    after_state: after,
  });
}

export type { AuditCursor, AuditFilter, AuditRow };

/** One page of a project's log (its own and its team's entries), newest first, and whether more follow. */
export async function auditPage(
  db: Queryable,
  scope: { projectId: string; teamId: string },
  filter: AuditFilter,
  cursor: AuditCursor | undefined,
  limit: number,
): Promise<{ rows: AuditRow[]; next: AuditCursor | null }> {
  const rows = await listEntries(db, scope, filter, cursor, limit + 1);
  const more = rows.length > limit;
  const page = more ? rows.slice(0, limit) : rows;
  const last = page.at(-1);
  return { rows: page, next: more && last ? { at: last.at, id: last.id } : null };
}

/** Every entry matching `filter`, newest first, read a page at a time (for streamed exports). */
export async function* auditEntries(
  db: Queryable,
  scope: { projectId: string; teamId: string },
  filter: AuditFilter,
  batch = 500,
): AsyncGenerator<AuditRow> {
  let cursor: AuditCursor | undefined;
  for (;;) {
    const { rows, next } = await auditPage(db, scope, filter, cursor, batch);
    yield* rows;
    if (!next) return;
    cursor = next;
  }
}

export async function auditRetention(db: Queryable, projectId: string): Promise<number> {
  return (await getRetention(db, projectId)) ?? DEFAULT_RETENTION_DAYS;
}

/** Sets a project's retention; the change is itself recorded. */
export async function setAuditRetention(db: Database, projectId: string, days: number): Promise<number> {
  await db.transaction(async (tx) => {
    const was = (await getRetention(tx, projectId)) ?? DEFAULT_RETENTION_DAYS;
    await putRetention(tx, projectId, days, nowIso());
    await recordAudit(tx, {
      projectId,
      action: 'audit.retention_changed',
      target: { type: 'project', id: projectId },
      before: { retentionDays: was },
      after: { retentionDays: days },
    });
  });
  return days;
}

const DAY_MS = 86_400_000;

/**
 * Deletes entries past their retention, `batch` rows per statement (a short write each, so a large
 * backlog never holds the writer for long). Returns how many went.
 */
export async function pruneAuditLog(
  db: Database,
  options: { now?: Date; batch?: number; stopping?: () => boolean } = {},
): Promise<number> {
  const now = (options.now ?? new Date()).getTime();
  const batch = options.batch ?? 500;
  const stopping = options.stopping ?? (() => false);
  let deleted = 0;
  const drain = async (deleteBatch: () => Promise<{ changes: number }>) => {
    for (;;) {
      if (stopping()) return;
      const { changes: gone } = await deleteBatch();
      deleted += gone;
      if (gone < batch) return;
    }
  };
  // The shortest retention allowed is a day: nothing older than that, nothing to delete (and an
  // idle pass then runs no write, which would move SQLite's change marker).
  if (!(await anyOlderThan(db, new Date(now - DAY_MS).toISOString()))) return 0;
  for (const setting of await retentionSettings(db)) {
    const before = new Date(now - Number(setting.retention_days) * DAY_MS).toISOString();
    await drain(() => pruneProjectBatch(db, setting.project_id, before, batch));
  }
  const before = new Date(now - DEFAULT_RETENTION_DAYS * DAY_MS).toISOString();
  await drain(() => pruneDefaultBatch(db, before, batch));
  return deleted;
}
