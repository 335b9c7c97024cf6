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
