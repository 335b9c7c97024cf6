/**
 * What the Sentry ingest accepted and dropped, per item type, in this process: the server has no
 * metrics endpoint, so the counts are kept here (per database handle, as the app runs one per
 * database) and read by tests and, logged at debug level, by operators.
 */
import type { Database } from '../../db/database.ts';

export interface IngestCounts {
  /** Items turned into error reports or log entries, by item type (`event`, `log`). */
  accepted: Record<string, number>;
  /** Items accepted with a 200 and dropped (sessions, client reports, transactions…), by type. */
  dropped: Record<string, number>;
}

const KNOWN_TYPES = new Set([
  'event',
  'log',
  'session',
  'sessions',
  'client_report',
  'transaction',
  'attachment',
  'span',
  'profile',
  'profile_chunk',
  'replay_event',
  'replay_recording',
  'replay_video',
  'check_in',
  'feedback',
  'user_report',
  'statsd',
  'metric_meta',
  'trace_metric',
]);

const counts = new WeakMap<Database, IngestCounts>();

export function ingestCounts(db: Database): IngestCounts {
  let found = counts.get(db);
  if (!found) {
    found = { accepted: {}, dropped: {} };
    counts.set(db, found);
  }
  return found;
}

export function countItem(db: Database, kind: 'accepted' | 'dropped', type: string): void {
  const bucket = ingestCounts(db)[kind];
  // Item types come from the client: known names only, so a sender cannot grow the map.
  const name = KNOWN_TYPES.has(type) ? type : 'other';
  bucket[name] = (bucket[name] ?? 0) + 1;
}
