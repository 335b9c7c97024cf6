/** Log group rows as the management API shows them. */
import { parseJson } from '../../db/query.ts';
import { presentGroup } from '../reports/index.ts';

type Row = Record<string, any>;

export function presentLogSummary(row: Row) {
  return {
    ...presentGroup(row),
    fingerprint: row.fingerprint,
    level: row.level,
    category: row.category,
    source: row.source,
    message: row.message,
    userId: row.user_id,
    appVersion: row.app_version,
  };
}
export function presentLog(row: Row) {
  return { ...presentLogSummary(row), data: parseJson(row.data) };
}

/** A log line (store-line-reads.ts LINE_COLUMNS) as the management API shows it. */
export function presentLine(row: Row) {
  return {
    id: String(row.id),
    groupId: row.group_id,
    environment: row.environment,
    timestamp: row.ts,
    level: row.level,
    severity: row.severity ?? null,
    message: row.message,
    category: row.category,
    fingerprint: row.fingerprint,
    source: row.source,
    appVersion: row.app_version,
    userId: row.user_id,
    traceId: row.trace_id,
    spanId: row.span_id,
    data: typeof row.data === 'string' ? parseJson(row.data) : (row.data ?? null),
  };
}
