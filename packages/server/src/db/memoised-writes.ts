/**
 * Which statements can change what the in-process memos hold (the key memo, the version caches,
 * the response memo, the board's page cache: everything keyed on `Database.changeMarker`). On
 * PostgreSQL a transaction that ran one of them publishes a change notification (see
 * pg-listener.ts); on SQLite it moves this process's change marker (sqlite.ts). A transaction
 * that only read, or only wrote the tables below, does neither, so the memos stay warm.
 *
 * The tables below are the hot write paths that no memo reads: error and bug reports, log
 * groups, missing-translation telemetry, plan-quota counters and rate-limit windows. Each is
 * read only by its own store (reports/, logs/, translations/store-missing.ts, http/quota.ts,
 * http/rate-limit.ts), which serve management lists and the per-request limit checks, never a
 * memoised read. On PostgreSQL NOTIFY takes a database-wide lock at commit; on SQLite every
 * commit emptied every memo (a metered read's quota flush, each error report). No trigger and no
 * foreign key action writes from these tables into another one outside this list (the one trigger,
 * on SQLite, takes a deleted log group's key out of log_group_keys).
 * test/db/pg-change-notification.test.ts holds that list of readers: a new reader of one of these
 * tables fails it until someone checks that no memo reads through it (and removes the table from
 * this list if one does).
 *
 * Everything else counts as a change, and so does any statement this cannot read with certainty
 * (DDL, a leading comment, a table name it cannot find, SQLite's INSERT OR …): a spurious change
 * costs one memo refill, a missed one a stale answer.
 */
export const UNMEMOISED_TABLES: ReadonlySet<string> = new Set([
  'error_reports',
  'error_occurrences_hourly',
  // Error groups and what they keep (resources/reports/store-groups.ts): written with every error
  // event, read only by the management API, which keeps no memo.
  'error_groups',
  'error_events',
  'error_group_users',
  'error_group_tags',
  // The alert worker's marks of group counts for spikes (resources/reports/store-alerts.ts).
  'error_group_event_marks',
  'dedup_heads',
  'bug_reports',
  'log_groups',
  // SQLite's keys of log groups and its sweep mark (resources/logs/store-sqlite-keys.ts).
  'log_group_keys',
  'log_group_key_sweeps',
  // Log lines, their volume and who sent them (resources/logs/store-lines.ts): written with every
  // POST /logs, read only by the management API.
  'log_lines',
  'log_line_spans',
  'log_volume',
  'log_group_attributes',
  'missing_translations',
  'quota_usage',
  'rate_limit_heads',
  'rate_limit_hits',
  // The webhook outbox: its worker claims and marks rows all the time, and no memo reads them.
  'webhook_deliveries',
  // Release health: session updates and version-check counts (resources/release-health).
  'release_sessions',
  'release_session_hours',
  'release_session_users',
  'release_checks',
  'release_users',
  'release_health_totals',
  'release_check_totals',
  // "What's new" seen markers (resources/changelog/readers-store.ts): written whenever a reader
  // opens the panel, read only by GET /updates, which is not memoised.
  'changelog_readers',
]);

const SELECT = /^\s*select\b/i;
const WITH = /^\s*with\b/i;
const MODIFYING_WORD = /\b(insert|update|delete|merge|truncate)\b/i;
/** TRUNCATE names a list of tables; rare enough to notify always. */
const TRUNCATE = /\btruncate\b/i;
/**
 * The table after each writing keyword. `DO UPDATE` (an upsert's conflict branch) and the row
 * locks `FOR [NO KEY] UPDATE` name no table and are skipped.
 */
const WRITTEN_TABLE =
  /\b(?:insert\s+into|delete\s+from|merge\s+into|(?<!\b(?:do|for|key)\s+)update)\s+(?:only\s+)?"?([a-z_][a-z0-9_]*)"?/gi;

const verdicts = new Map<string, boolean>();

/** Whether running `sql` may change data some memo reads. Cached per statement text. */
export function changesMemoisedData(sql: string): boolean {
  let verdict = verdicts.get(sql);
  if (verdict === undefined) {
    verdict = classify(sql);
    if (verdicts.size >= 10_000) verdicts.clear();
    verdicts.set(sql, verdict);
  }
  return verdict;
}

function classify(sql: string): boolean {
  // A SELECT changes nothing here (no statement calls a writing function); nor does a WITH
  // without a data-modifying part.
  if (SELECT.test(sql)) return false;
  if (WITH.test(sql) && !MODIFYING_WORD.test(sql)) return false;
  if (TRUNCATE.test(sql)) return true;
  const tables = [...sql.matchAll(WRITTEN_TABLE)].map((match) => match[1]!.toLowerCase());
  if (tables.length === 0) return true;
  return tables.some((table) => !UNMEMOISED_TABLES.has(table));
}
