/**
 * Sentry log items (`type: log`, `application/vnd.sentry.items.log+json`) as the entries POST
 * /logs takes: `{items: [{timestamp, trace_id, level, body, attributes: {k: {value, type}}}]}`.
 * The level maps onto the five log levels, the body is the message, attributes become `data`
 * (with the trace id), `sentry.release` the app version, `user.id` the user, and the SDK's name
 * the source.
 */
import type { LogEntry } from '../logs/index.ts';
import { sentryTime } from './event-mapping.ts';

type Json = Record<string, unknown>;

const LEVELS: Record<string, LogEntry['level']> = {
  fatal: 'error',
  error: 'error',
  warn: 'warn',
  warning: 'warn',
  info: 'info',
  log: 'info',
  debug: 'debug',
  trace: 'trace',
};

/** More log records than one item should carry; Sentry SDKs flush at 100. */
const MAX_RECORDS = 1000;

const clip = (value: string, max: number) => (value.length > max ? `${value.slice(0, max - 1)}…` : value);

function attributeValues(raw: unknown): Json {
  const data: Json = {};
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return data;
  for (const [key, attribute] of Object.entries(raw as Json).slice(0, 100)) {
    const value =
      attribute !== null && typeof attribute === 'object' && 'value' in (attribute as Json)
        ? (attribute as Json)['value']
        : attribute;
    data[key] = value;
  }
  return data;
}

const text = (value: unknown, max: number): string | undefined =>
  typeof value === 'string' && value !== '' ? clip(value, max) : typeof value === 'number' ? String(value) : undefined;

export function logEntriesFromItem(payload: Json): LogEntry[] {
  const records = payload['items'];
  if (!Array.isArray(records)) return [];
  const entries: LogEntry[] = [];
  for (const value of records.slice(0, MAX_RECORDS)) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) continue;
    const record = value as Json;
    const attributes = attributeValues(record['attributes']);
    const level = LEVELS[String(record['level'] ?? '').toLowerCase()] ?? 'info';
    const body = typeof record['body'] === 'string' ? record['body'] : JSON.stringify(record['body'] ?? '');
    const data: Json = { ...attributes };
    if (typeof record['trace_id'] === 'string') data['trace_id'] = record['trace_id'];
    if (typeof record['span_id'] === 'string') data['span_id'] = record['span_id'];
    // Kept apart from error on the line (store-lines.ts severityOf): the spec has no fatal level.
    if (String(record['level'] ?? '').toLowerCase() === 'fatal') data['severity'] = 'fatal';
    const entry: LogEntry = { level, message: clip(body, 5000) };
    const source = text(attributes['sentry.sdk.name'], 200);
    if (source) entry.source = source;
    const appVersion = text(attributes['sentry.release'], 100);
    if (appVersion) entry.appVersion = appVersion;
    const userId = text(attributes['user.id'], 200);
    if (userId) entry.userId = userId;
    const timestamp = sentryTime(record['timestamp']);
    if (timestamp) entry.timestamp = timestamp;
    if (Object.keys(data).length > 0) entry.data = data;
    entries.push(entry);
  }
  return entries;
}
