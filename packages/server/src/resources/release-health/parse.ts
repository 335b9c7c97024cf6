import { normaliseRelease } from '../../kernel/release.ts';

export type CountedStatus = 'healthy' | 'errored' | 'unhandled' | 'abnormal' | 'crashed';
export const STATUS_RANK: Record<CountedStatus, number> = {
  healthy: 0,
  errored: 1,
  unhandled: 2,
  abnormal: 3,
  crashed: 4,
};
export const COUNTED_STATUSES = ['healthy', 'errored', 'unhandled', 'abnormal', 'crashed'] as const;

/** Sentry accepts session updates for 5 days after the session started. */
export const UPDATE_WINDOW_MS = 5 * 24 * 3600_000;
/** And up to a day ahead of the update's arrival (a client's clock may run ahead). */
export const FUTURE_MS = 24 * 3600_000;
const MAX_TEXT = 200;

export interface SessionUpdate {
  sid: string;
  did: string | null;
  started: string;
  hour: string;
  status: CountedStatus;
  release: string;
  sdkEnvironment: string;
}

export interface SessionAggregate {
  did: string | null;
  hour: string;
  release: string;
  sdkEnvironment: string;
  healthy: number;
  errored: number;
  unhandled: number;
  abnormal: number;
  crashed: number;
}

type Json = Record<string, unknown>;
const object = (value: unknown): Json | undefined =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined;

function bounded(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed.slice(0, MAX_TEXT);
}

/** A release as Signpost matches it: the one normalisation (kernel/release.ts). */
export { normaliseRelease } from '../../kernel/release.ts';

export function hourOf(iso: string): string {
  return `${iso.slice(0, 13)}:00:00.000Z`;
}

/** Sentry's timestamps: an RFC 3339 string or seconds since the epoch. */
function time(value: unknown): number | undefined {
  const ms = typeof value === 'number' ? value * 1000 : typeof value === 'string' ? Date.parse(value) : Number.NaN;
  return Number.isFinite(ms) && ms >= 0 && ms < 253_402_300_800_000 ? ms : undefined;
}

/** Within the window: started no more than 5 days ago and no more than a day ahead. */
function inWindow(startedMs: number, now: Date): boolean {
  return startedMs >= now.getTime() - UPDATE_WINDOW_MS && startedMs <= now.getTime() + FUTURE_MS;
}

/** A count, 0 when absent, or NaN when it is not one (the aggregate is then ignored). */
function count(value: unknown): number {
  if (value === undefined || value === null) return 0;
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 1_000_000_000
    ? value
    : Number.NaN;
}

function countedStatus(status: unknown, errors: unknown): CountedStatus | undefined {
  const hadErrors = typeof errors === 'number' && errors > 0;
  switch (status) {
    case 'crashed':
      return 'crashed';
    case 'abnormal':
      return 'abnormal';
    case 'unhandled':
      return 'unhandled';
    case 'errored':
      return 'errored';
    case 'ok':
    case 'exited':
    case undefined:
      return hadErrors ? 'errored' : 'healthy';
    default:
      return undefined;
  }
}

/** A `session` item, or undefined when it is invalid, outside the update window or names no release. */
export function sessionUpdate(payload: Json, now: Date): SessionUpdate | undefined {
  const sid = bounded(payload['sid']);
  const startedMs = time(payload['started']);
  const status = countedStatus(payload['status'], payload['errors']);
  const attrs = object(payload['attrs']) ?? {};
  const release = bounded(attrs['release']);
  // Sentry drops sessions without a release: release health is per release.
  if (sid === undefined || startedMs === undefined || status === undefined || release === undefined) return undefined;
  if (!inWindow(startedMs, now)) return undefined;
  const started = new Date(startedMs).toISOString();
  return {
    sid,
    did: bounded(payload['did']) ?? null,
    started,
    hour: hourOf(started),
    status,
    release: normaliseRelease(release),
    sdkEnvironment: bounded(attrs['environment']) ?? '',
  };
}

/** A `sessions` item's aggregates within the window (server-mode SDKs: one per minute bucket). */
export function sessionAggregates(payload: Json, now: Date): SessionAggregate[] {
  const aggregates = payload['aggregates'];
  const attrs = object(payload['attrs']) ?? {};
  const release = bounded(attrs['release']);
  if (!Array.isArray(aggregates) || release === undefined) return [];
  const found: SessionAggregate[] = [];
  for (const raw of aggregates) {
    const aggregate = object(raw);
    const startedMs = time(aggregate?.['started']);
    if (!aggregate || startedMs === undefined || !inWindow(startedMs, now)) continue;
    const counts = {
      healthy: count(aggregate['exited']),
      errored: count(aggregate['errored']),
      unhandled: count(aggregate['unhandled']),
      abnormal: count(aggregate['abnormal']),
      crashed: count(aggregate['crashed']),
    };
    const total = counts.healthy + counts.errored + counts.unhandled + counts.abnormal + counts.crashed;
    // NaN when a count is not one: the aggregate is ignored.
    if (!(total > 0)) continue;
    found.push({
      did: bounded(aggregate['did']) ?? null,
      hour: hourOf(new Date(startedMs).toISOString()),
      release: normaliseRelease(release),
      sdkEnvironment: bounded(attrs['environment']) ?? '',
      ...counts,
    });
  }
  return found;
}
