/** Audit rows to the API shape, and to the export formats' lines. */
import type { AuditRow } from './store.ts';

const parsed = (text: string | null): unknown => (text === null ? null : JSON.parse(text));

export function presentEntry(row: AuditRow) {
  return {
    id: row.id,
    at: row.at,
    projectId: row.project_id,
    actor: {
      type: row.actor_type as 'account' | 'api_key' | 'oauth' | 'system',
      id: row.actor_id,
      label: row.actor_label,
      via: row.via as 'session' | 'token' | 'cli' | 'public-api' | 'mcp' | 'system',
    },
    action: row.action,
    target: { type: row.target_type, id: row.target_id },
    before: parsed(row.before_state),
    after: parsed(row.after_state),
  };
}

export const CSV_COLUMNS = [
  'id',
  'at',
  'project_id',
  'actor_type',
  'actor_id',
  'actor_label',
  'via',
  'action',
  'target_type',
  'target_id',
  'before',
  'after',
] as const;

/**
 * One RFC 4180 field: quoted when it holds a comma, quote or line break. A field a spreadsheet
 * would run as a formula (=, +, -, @, tab, CR first) gets a leading apostrophe (OWASP's CSV
 * injection advice); the JSON lines export keeps values as they are.
 */
export function csvField(value: string | null): string {
  if (value === null) return '';
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export function csvLine(row: AuditRow): string {
  const values = [
    row.id,
    row.at,
    row.project_id,
    row.actor_type,
    row.actor_id,
    row.actor_label,
    row.via,
    row.action,
    row.target_type,
    row.target_id,
    row.before_state,
    row.after_state,
  ];
  return `${values.map(csvField).join(',')}\r\n`;
}

export const jsonLine = (row: AuditRow) => `${JSON.stringify(presentEntry(row))}\n`;
