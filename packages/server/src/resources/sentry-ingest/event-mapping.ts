/**
 * A Sentry event (develop.sentry.dev/sdk/data-model/event-payloads) as the error report POST
 * /errors takes: the title from the exception's type and value, the stack trace from its frames
 * (Sentry lists them oldest call first; the stored trace reads newest first, like a JS stack),
 * breadcrumbs in the spec's types, contexts to device, network and app, `release` to
 * `app.version`, the level to a severity. What has no field of its own goes to `metadata.sentry`.
 */
import type { ErrorReportBody } from '../reports/index.ts';

type Json = Record<string, unknown>;
type Breadcrumbs = NonNullable<ErrorReportBody['breadcrumbs']>;

const object = (value: unknown): Json | undefined =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined;
const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : undefined;
const clip = (value: string, max: number) => (value.length > max ? `${value.slice(0, max - 1)}…` : value);
/** A bounded short field, or nothing. */
const short = (value: unknown, max = 500): string | undefined => {
  const found = text(value);
  return found === undefined ? undefined : clip(found, max);
};

/** Sentry's timestamps: seconds since the epoch (a float) or an RFC 3339 string. */
export function sentryTime(value: unknown): string | undefined {
  const ms = typeof value === 'number' ? value * 1000 : typeof value === 'string' ? Date.parse(value) : Number.NaN;
  // Up to the year 9999: an ISO timestamp with a six-digit year is not one the report takes.
  if (!Number.isFinite(ms) || ms < 0 || ms >= 253_402_300_800_000) return undefined;
  return isoTime(ms);
}

const MINUTE_MS = 60_000;
/** The last minute formatted, `YYYY-MM-DDTHH:MM:`: an event's 50 breadcrumbs fall in a minute or two. */
let minute = { at: Number.NaN, prefix: '' };

/**
 * `new Date(ms).toISOString()`, with the date and minute formatted once per minute: a Date and
 * its formatting per breadcrumb showed as 2.7 % of a browser event's CPU (issue 31's profile).
 * Fractions below a millisecond are cut, as toISOString cuts them.
 */
function isoTime(ms: number): string {
  const whole = Math.floor(ms);
  const at = whole - (whole % MINUTE_MS);
  if (at !== minute.at) minute = { at, prefix: new Date(at).toISOString().slice(0, 17) };
  const rest = whole - at;
  const seconds = Math.floor(rest / 1000);
  const millis = rest % 1000;
  return `${minute.prefix}${seconds < 10 ? '0' : ''}${seconds}.${millis < 10 ? '00' : millis < 100 ? '0' : ''}${millis}Z`;
}

const SEVERITY: Record<string, ErrorReportBody['severity']> = {
  fatal: 'critical',
  error: 'high',
  warning: 'medium',
  warn: 'medium',
  info: 'low',
  log: 'low',
  debug: 'low',
};

const ENVIRONMENTS: Record<string, 'development' | 'staging' | 'production'> = {
  production: 'production',
  prod: 'production',
  staging: 'staging',
  stage: 'staging',
  development: 'development',
  dev: 'development',
  local: 'development',
};

function mainException(event: Json): Json | undefined {
  const values = object(event['exception'])?.['values'] ?? event['exception'];
  if (!Array.isArray(values) || values.length === 0) return undefined;
  // The last value is the one thrown; earlier ones are its causes.
  return object(values[values.length - 1]);
}

function messageOf(event: Json): string | undefined {
  const message = event['message'];
  if (typeof message === 'string') return message;
  const logentry = object(message) ?? object(event['logentry']);
  return text(logentry?.['formatted']) ?? text(logentry?.['message']);
}

function frameLine(frame: Json): string {
  const fn = text(frame['function']) ?? '<anonymous>';
  const file = text(frame['abs_path']) ?? text(frame['filename']) ?? text(frame['module']) ?? '<unknown>';
  const line = text(frame['lineno']);
  const column = text(frame['colno']);
  const where = `${file}${line ? `:${line}` : ''}${line && column ? `:${column}` : ''}`;
  return `    at ${fn} (${where})`;
}

function stackOf(exception: Json, heading: string): string | undefined {
  const frames = object(exception['stacktrace'])?.['frames'];
  if (!Array.isArray(frames) || frames.length === 0) return undefined;
  const lines = [heading];
  for (let i = frames.length - 1; i >= 0; i--) {
    const frame = object(frames[i]);
    if (frame) lines.push(frameLine(frame));
  }
  return clip(lines.join('\n'), 50_000);
}

function breadcrumbType(crumb: Json): Breadcrumbs[number]['type'] {
  const type = text(crumb['type']) ?? '';
  const category = text(crumb['category']) ?? '';
  if (type === 'navigation' || category === 'navigation') return 'navigation';
  if (category === 'ui.click') return 'click';
  if (category === 'ui.input' || category === 'ui.keypress') return 'input';
  if (type === 'http' || category === 'fetch' || category === 'xhr' || category === 'http') return 'http';
  if (category === 'console') return 'console';
  return 'custom';
}

function breadcrumbMessage(crumb: Json, type: Breadcrumbs[number]['type']): string {
  const message = text(crumb['message']);
  if (message) return message;
  const data = object(crumb['data']) ?? {};
  if (type === 'http') {
    const status = text(data['status_code']);
    return [text(data['method']), text(data['url']), status ? `[${status}]` : undefined].filter(Boolean).join(' ');
  }
  if (type === 'navigation') return `${text(data['from']) ?? ''} → ${text(data['to']) ?? ''}`.trim();
  return text(crumb['category']) ?? type;
}

function breadcrumbsOf(event: Json, fallbackTime: string): Breadcrumbs | undefined {
  const raw = object(event['breadcrumbs'])?.['values'] ?? event['breadcrumbs'];
  if (!Array.isArray(raw)) return undefined;
  const crumbs: Breadcrumbs = [];
  // The newest 50, oldest first as Sentry sends them.
  for (const value of raw.slice(-50)) {
    const crumb = object(value);
    if (!crumb) continue;
    const type = breadcrumbType(crumb);
    // Fields set one by one, in the order the stored JSON has always had: the spreads of optional
    // fields made a throwaway object each, 50 breadcrumbs an event (issue 31).
    const kept: Breadcrumbs[number] = {
      timestamp: sentryTime(crumb['timestamp']) ?? fallbackTime,
      type,
      message: clip(breadcrumbMessage(crumb, type), 2000),
    };
    const category = short(crumb['category'], 200);
    if (category) kept.category = category;
    const level = short(crumb['level'], 50);
    if (level) kept.level = level;
    const data = small(object(crumb['data']), 2000);
    if (data) kept.data = data;
    crumbs.push(kept);
  }
  return crumbs.length > 0 ? crumbs : undefined;
}

/** The object if its JSON is at most `max` characters (what a report keeps of free-form data). */
function small(value: Json | undefined, max: number): Json | undefined {
  if (!value) return undefined;
  return jsonLengthBound(value) <= max || JSON.stringify(value).length <= max ? value : undefined;
}

/** The longest JSON text of a number: `-1.7976931348623157e+308`. */
const NUMBER_JSON_MAX = 24;

/**
 * An upper bound of the length of a flat object's JSON, or Infinity for one that nests or holds
 * anything but text, numbers, booleans and null. A character of text is at most six in JSON
 * (`\u001f`). Where the bound is within a limit, the object is within it without being serialised:
 * `small` serialised each of an event's 50 breadcrumbs' data only to measure it (issue 31).
 */
function jsonLengthBound(value: Json): number {
  let length = 2;
  for (const key in value) {
    const field = value[key];
    let size: number;
    if (typeof field === 'string') size = 2 + 6 * field.length;
    else if (typeof field === 'number') size = NUMBER_JSON_MAX;
    else if (typeof field === 'boolean' || field === null) size = 5;
    else return Number.POSITIVE_INFINITY;
    length += 2 + 6 * key.length + 1 + size + 1;
  }
  return length;
}

/**
 * The object without its undefined fields, or undefined when none is left. A plain loop:
 * `Object.entries` and `Object.fromEntries` showed in the envelope's profile.
 */
function withoutEmpty<T extends Json>(value: T): T | undefined {
  const kept: Json = {};
  let any = false;
  for (const key in value) {
    const field = value[key];
    if (field === undefined) continue;
    kept[key] = field;
    any = true;
  }
  return any ? (kept as T) : undefined;
}

function headerOf(request: Json | undefined, name: string): string | undefined {
  const headers = object(request?.['headers']);
  if (!headers) return undefined;
  const found = Object.keys(headers).find((key) => key.toLowerCase() === name);
  return found === undefined ? undefined : text(headers[found]);
}

function deviceOf(contexts: Json, request: Json | undefined): ErrorReportBody['device'] {
  const browser = object(contexts['browser']);
  const os = object(contexts['os']);
  const device = object(contexts['device']);
  const culture = object(contexts['culture']);
  const width = text(device?.['screen_width_pixels']);
  const height = text(device?.['screen_height_pixels']);
  return withoutEmpty({
    userAgent: short(headerOf(request, 'user-agent'), 1000),
    browser: short(browser?.['name']),
    browserVersion: short(browser?.['version']),
    os: short(text(os?.['name'])?.trim()),
    osVersion: short(text(os?.['version'] ?? os?.['kernel_version'])?.trim()),
    device: short(device?.['model'] ?? device?.['family'] ?? device?.['name']),
    screenResolution: short(device?.['screen_resolution'] ?? (width && height ? `${width}x${height}` : undefined)),
    language: short(culture?.['locale']),
    timezone: short(culture?.['timezone']),
  });
}

function networkOf(contexts: Json): ErrorReportBody['network'] {
  const network = object(contexts['network']) ?? {};
  const device = object(contexts['device']) ?? {};
  const number = (value: unknown) =>
    typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
  const online = network['online'] ?? device['online'];
  return withoutEmpty({
    effectiveType: short(network['effective_type'] ?? network['effectiveType'] ?? device['connection_type']),
    downlink: number(network['downlink']),
    rtt: number(network['rtt']),
    online: typeof online === 'boolean' ? online : undefined,
  });
}

/** At least `min` characters: the report's fields have minimum lengths a terse event may miss. */
function atLeast(value: string, min: number, filler: string): string {
  return value.trim().length >= min ? value : `${value} ${filler}`.trim().padEnd(min, '.');
}

export function errorReportFromEvent(event: Json, receivedAt: Date): ErrorReportBody {
  const exception = mainException(event);
  const type = short(exception?.['type'], 200);
  const value = text(exception?.['value']);
  const message = messageOf(event);
  const heading =
    type && value ? `${type}: ${value}` : (type ?? value ?? message ?? 'Error reported through a Sentry SDK');
  const title = atLeast(clip(heading.split('\n')[0]!, 200), 5, 'error');
  const contexts = object(event['contexts']) ?? {};
  const request = object(event['request']);
  const user = object(event['user']);
  const environment = text(event['environment']);
  const occurredAt = sentryTime(event['timestamp']) ?? receivedAt.toISOString();
  const sdk = object(event['sdk']);
  const extra = object(event['extra']);
  const sentry = withoutEmpty({
    eventId: short(event['event_id'], 100),
    platform: short(event['platform'], 100),
    sdk: sdk ? `${text(sdk['name']) ?? ''}/${text(sdk['version']) ?? ''}` : undefined,
    environment: short(environment, 200),
    serverName: short(event['server_name'], 200),
    transaction: short(event['transaction'], 500),
    tags: small(object(event['tags']), 5000),
    extra: small(extra, 10_000),
    username: short(user?.['username'], 200),
    fingerprint: Array.isArray(event['fingerprint']) ? event['fingerprint'].slice(0, 20) : undefined,
  });
  const mappedEnvironment = environment ? ENVIRONMENTS[environment.toLowerCase()] : undefined;
  const level = text(event['level'])?.toLowerCase();
  const report: ErrorReportBody = {
    title,
    // The message as sent: the record's minimum length is POST /errors' input rule, not the
    // store's, and a short Sentry message ("boom") is kept as it is.
    message: clip(value ?? message ?? heading, 5000),
    ...(exception ? { stackTrace: stackOf(exception, clip(heading, 1000)) } : {}),
    ...(type ? { errorType: type } : {}),
    severity: (level ? SEVERITY[level] : undefined) ?? (exception ? 'high' : 'low'),
    breadcrumbs: breadcrumbsOf(event, occurredAt),
    device: deviceOf(contexts, request),
    network: networkOf(contexts),
    app: withoutEmpty({
      version: short(event['release']),
      environment: mappedEnvironment,
      userId: short(user?.['id']),
      userEmail: short(user?.['email']),
      sessionId: short(object(contexts['session'])?.['id']),
    }),
    url: short(request?.['url'], 4000),
    referrer: short(headerOf(request, 'referer'), 4000),
    timestamp: occurredAt,
    ...(sentry ? { metadata: { sentry } } : {}),
  };
  return withoutEmpty(report as unknown as Json) as unknown as ErrorReportBody;
}
