import { hash } from 'node:crypto';
import type { Database, SqlValue } from '../../db/database.ts';
import { newId } from '../../ids.ts';
import type { Scope } from '../features/store.ts';
import type { LogEntry } from './routes.ts';

/** The given fingerprint, else a hash of level, category and message. */
export function logFingerprint(entry: LogEntry): string {
  if (entry.fingerprint) return entry.fingerprint;
  return hash('sha1', `${entry.level}\u0000${entry.category ?? ''}\u0000${entry.message}`);
}

interface Group {
  fingerprint: string;
  last: LogEntry;
  count: number;
  firstSeen: string;
  lastSeen: string;
}

/** Folds a batch into one group per fingerprint, so a repeated line costs one upsert. */
function groupBatch(entries: readonly LogEntry[], receivedAt: string): Group[] {
  const groups = new Map<string, Group>();
  for (const entry of entries) {
    const fingerprint = logFingerprint(entry);
    const at = entry.timestamp ? new Date(entry.timestamp).toISOString() : receivedAt;
    const group = groups.get(fingerprint);
    if (!group) {
      groups.set(fingerprint, { fingerprint, last: entry, count: 1, firstSeen: at, lastSeen: at });
    } else {
      group.last = entry;
      group.count++;
      if (at < group.firstSeen) group.firstSeen = at;
      if (at > group.lastSeen) group.lastSeen = at;
    }
  }
  // A fixed lock order: two batches touching the same fingerprints can never deadlock.
  return [...groups.values()].sort((a, b) => (a.fingerprint < b.fingerprint ? -1 : a.fingerprint > b.fingerprint ? 1 : 0));
}

const COLUMNS = 14;
const upserts = new Map<number, string>();

/** One multi-row upsert per batch (groups are unique per fingerprint, as PostgreSQL requires). */
function upsertFor(rows: number): string {
  let sql = upserts.get(rows);
  if (!sql) {
    const row = `(${Array.from({ length: COLUMNS }, () => '?').join(', ')})`;
    sql = `
  INSERT INTO log_groups (id, project_id, environment, fingerprint, level, category, source, message, data, user_id,
    app_version, occurrences, first_seen_at, last_seen_at)
  VALUES ${Array.from({ length: rows }, () => row).join(', ')}
  ON CONFLICT (project_id, environment, fingerprint) DO UPDATE SET
    occurrences = log_groups.occurrences + excluded.occurrences,
    status = CASE WHEN log_groups.status = 'resolved' THEN 'open' ELSE log_groups.status END,
    level = excluded.level,
    category = excluded.category,
    source = excluded.source,
    message = excluded.message,
    data = excluded.data,
    user_id = excluded.user_id,
    app_version = excluded.app_version,
    first_seen_at = CASE WHEN excluded.first_seen_at < log_groups.first_seen_at THEN excluded.first_seen_at ELSE log_groups.first_seen_at END,
    last_seen_at = CASE WHEN excluded.last_seen_at > log_groups.last_seen_at THEN excluded.last_seen_at ELSE log_groups.last_seen_at END`;
    upserts.set(rows, sql);
  }
  return sql;
}

/** Stores a validated batch in one transaction: all of it or none. */
export async function storeLogBatch(db: Database, scope: Scope, entries: readonly LogEntry[], receivedAt: Date): Promise<void> {
  if (entries.length === 0) return;
  const groups = groupBatch(entries, receivedAt.toISOString());
  const params: SqlValue[] = [];
  for (const group of groups) {
    const entry = group.last;
    params.push(
      newId('log'), scope.projectId, scope.environment, group.fingerprint, entry.level, entry.category ?? null,
      entry.source ?? null, entry.message, entry.data === undefined ? null : JSON.stringify(entry.data),
      entry.userId ?? null, entry.appVersion ?? null, group.count, group.firstSeen, group.lastSeen,
    );
  }
  // A single statement is atomic on its own: the batch is stored whole or not at all.
  await db.run(upsertFor(groups.length), params);
}
