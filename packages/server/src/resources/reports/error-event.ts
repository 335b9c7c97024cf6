/**
 * An error event as its group keeps it (issue 31): the event as the SDK sent it (a Sentry event, or a
 * POST /errors body put in the same shape), with the user agent parsed into the browser, OS and
 * device contexts it did not send, compressed; and what the group's write needs of it (its grouping
 * key, SDK environment, release, user, tags, whether it was handled).
 */
import { hash, randomUUID } from 'node:crypto';
import { constants, zstdCompressSync, zstdDecompressSync } from 'node:zlib';
import type { UAParser } from 'ua-parser-js';
import { lazyModule } from '../../kernel/lazy-module.ts';
import { culpritOf, type Frame, framesFromStackText, groupKeyOf } from './grouping.ts';
import type { ErrorReportBody } from './schemas.ts';
import { zstdFrameBase64 } from './zstd-frames.ts';

type Json = Record<string, unknown>;

/** The SDK environment of an event that names none: what Sentry's SDKs send by default. */
export const DEFAULT_SDK_ENVIRONMENT = 'production';

export interface PreparedEvent {
  groupKey: string;
  sdkEnvironment: string;
  title: string;
  errorType: string | null;
  culprit: string | null;
  level: string;
  release: string | null;
  eventId: string;
  /** A hash of the user's id, else e-mail, else IP address. */
  userKey: string | null;
  handled: boolean | null;
  tags: [string, string][];
  /** The event, zstd-compressed, base64. */
  payload: string;
}

const object = (value: unknown): Json | undefined =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined;
const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== ''
    ? value.trim()
    : typeof value === 'number' && Number.isFinite(value)
      ? String(value)
      : undefined;
const clip = (value: string, max: number) => (value.length > max ? value.slice(0, max) : value);

const LEVELS = new Set(['fatal', 'error', 'warning', 'info', 'debug']);
const LEVEL_OF_SEVERITY: Record<string, string> = { critical: 'fatal', high: 'error', medium: 'warning', low: 'info' };

/**
 * Events below this size (as JSON) are stored as they are: zstd's per-call set-up (about 0.1 ms)
 * costs more than the bytes it saves there, and a small event is a few hundred bytes anyway.
 */
const COMPRESS_FROM = 2048;

/**
 * The stored form of an event: 'j' and its JSON, or 'z' and its JSON zstd-compressed in base64.
 * `sent`, when given, is the event's JSON as it arrived (the bytes `event` was parsed from, and
 * `event` unchanged since): it is stored as it is, not serialised again (JSON.stringify of a 30 KB
 * browser event cost about as much CPU as compressing it, issue 31's profile).
 */
export function compressPayload(event: Json, sent?: Buffer): string {
  if (sent !== undefined && sent.length >= COMPRESS_FROM) return `z${zstdBase64(sent)}`;
  const json = sent !== undefined ? sent.toString('utf8') : JSON.stringify(event);
  if (json.length < COMPRESS_FROM) return `j${json}`;
  return `z${zstdBase64(Buffer.from(json))}`;
}

/** A frame of the process's kept zstd context (zstd-frames.ts), or of a context of its own. */
const zstdBase64 = (bytes: Buffer) => zstdFrameBase64(bytes) ?? zstd(bytes).toString('base64');

/**
 * zstd at level 1, told the input's size, so it sizes its window and tables to the event instead
 * of setting up level 3's for an input of unknown length. Compressing was about a tenth of a
 * browser event's CPU in issue 31's profile (sixth sitting), mostly zstd's own work; this trims
 * it: on the 30.7 KB event, 41 alternating rounds in one process (pinned, on a loaded machine),
 * 64.8 → 53.0 µs a call (per-round ratio 0.92), 2,388 → 2,372 bytes. The frame is an ordinary
 * one: decompressPayload reads it as before. Since the ninth sitting the process's kept context
 * (zstd-frames.ts) makes the same frames without a context per call; this is its fallback.
 */
function zstd(bytes: Buffer): Buffer {
  return zstdCompressSync(bytes, {
    pledgedSrcSize: bytes.length,
    params: { [constants.ZSTD_c_compressionLevel]: 1 },
  });
}

export function decompressPayload(payload: string): Json {
  const json = payload.startsWith('j')
    ? payload.slice(1)
    : zstdDecompressSync(Buffer.from(payload.slice(1), 'base64')).toString('utf8');
  return JSON.parse(json) as Json;
}

function mainException(event: Json): Json | undefined {
  const values = object(event['exception'])?.['values'] ?? event['exception'];
  if (!Array.isArray(values) || values.length === 0) return undefined;
  return object(values[values.length - 1]);
}

function framesOf(exception: Json | undefined): Frame[] {
  const frames = object(exception?.['stacktrace'])?.['frames'];
  if (!Array.isArray(frames)) return [];
  return frames.map((value) => {
    const frame = object(value) ?? {};
    return {
      filename: text(frame['filename']) ?? text(frame['abs_path']),
      module: text(frame['module']),
      function: text(frame['function']),
      in_app: frame['in_app'] === true ? true : frame['in_app'] === false ? false : undefined,
    };
  });
}

function headerOf(request: Json | undefined, name: string): string | undefined {
  const headers = request?.['headers'];
  if (Array.isArray(headers)) {
    const pair = headers.find((entry) => Array.isArray(entry) && String(entry[0]).toLowerCase() === name);
    return pair ? text(pair[1]) : undefined;
  }
  const map = object(headers);
  if (!map) return undefined;
  const found = Object.keys(map).find((key) => key.toLowerCase() === name);
  return found === undefined ? undefined : text(map[found]);
}

/** Parsed user agents, the most recent few hundred: an app's users send a handful of distinct ones. */
const userAgents = new Map<string, UAParser.IResult>();
// Loaded with the first report that carries a user agent, not at start.
const uaParser = lazyModule<{ UAParser: typeof UAParser }>('ua-parser-js', import.meta.url);

function parseUserAgent(userAgent: string): UAParser.IResult {
  let parsed = userAgents.get(userAgent);
  if (!parsed) {
    parsed = new (uaParser().UAParser)(userAgent).getResult();
    if (userAgents.size >= 500) userAgents.delete(userAgents.keys().next().value!);
    userAgents.set(userAgent, parsed);
  }
  return parsed;
}

/** Fills the browser, OS and device contexts from the user agent where the SDK sent none. */
function withParsedUserAgent(event: Json): Json {
  const userAgent = headerOf(object(event['request']), 'user-agent');
  if (!userAgent) return event;
  const sent = object(event['contexts']);
  // Every context already sent: the event is kept as it is (and so its JSON as sent).
  if (sent?.['browser'] && sent['os'] && sent['device']) return event;
  const parsed = parseUserAgent(userAgent.slice(0, 1000));
  const contexts = { ...(sent ?? {}) };
  if (!contexts['browser'] && parsed.browser.name)
    contexts['browser'] = { name: parsed.browser.name, version: parsed.browser.version };
  if (!contexts['os'] && parsed.os.name) contexts['os'] = { name: parsed.os.name, version: parsed.os.version };
  if (!contexts['device'] && (parsed.device.model || parsed.device.type))
    contexts['device'] = { model: parsed.device.model, brand: parsed.device.vendor, family: parsed.device.type };
  if (Object.keys(contexts).length === Object.keys(sent ?? {}).length) return event;
  return { ...event, contexts };
}

function userKeyOf(user: Json | undefined): string | null {
  const id = text(user?.['id']);
  const email = text(user?.['email']);
  const ip = text(user?.['ip_address']);
  const identity = id ? `id:${id}` : email ? `email:${email.toLowerCase()}` : ip && ip !== '{{auto}}' ? `ip:${ip}` : '';
  // One-shot `hash`: no Hash object per event (as dedup.ts hashes).
  return identity ? hash('sha256', identity).slice(0, 32) : null;
}

const MAX_TAGS = 50;

function tagsOf(event: Json, handled: boolean | null): [string, string][] {
  const tags = new Map<string, string>();
  const put = (key: unknown, value: unknown) => {
    const k = text(key);
    const v = text(value) ?? (typeof value === 'boolean' ? String(value) : undefined);
    if (k && v && tags.size < MAX_TAGS && !tags.has(k)) tags.set(clip(k, 64), clip(v, 200));
  };
  const sent = event['tags'];
  if (Array.isArray(sent)) for (const pair of sent) if (Array.isArray(pair)) put(pair[0], pair[1]);
  const map = object(sent);
  if (map) for (const key in map) put(key, map[key]);
  const contexts = object(event['contexts']) ?? {};
  const browser = object(contexts['browser']);
  const os = object(contexts['os']);
  const runtime = object(contexts['runtime']);
  const named = (context: Json | undefined) =>
    [text(context?.['name']), text(context?.['version'])?.split('.')[0]].filter(Boolean).join(' ');
  put('browser.name', browser?.['name']);
  put('browser', named(browser));
  put('os.name', os?.['name']);
  put('os', named(os));
  put('runtime', named(runtime));
  put('device', object(contexts['device'])?.['model']);
  put('server_name', event['server_name']);
  put('transaction', event['transaction']);
  if (handled !== null) put('handled', handled ? 'yes' : 'no');
  return [...tags];
}

const SECRET_HEADERS = new Set([
  'authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
  'x-sentry-auth',
  'proxy-authorization',
]);

/**
 * Without credentials: the request's Authorization, Cookie, API-key and Sentry-auth headers and its
 * cookies are replaced by "[Filtered]" (as Sentry's own server scrubs them by default).
 */
function withoutCredentials(event: Json): Json {
  const request = object(event['request']);
  if (!request) return event;
  const headers = request['headers'];
  const secret = (name: unknown) => SECRET_HEADERS.has(String(name).toLowerCase());
  const hasSecret = Array.isArray(headers)
    ? headers.some((pair) => Array.isArray(pair) && secret(pair[0]))
    : object(headers) !== undefined && Object.keys(headers as Json).some(secret);
  // Nothing to filter: the event is kept as it is (and so its JSON as sent).
  if (!hasSecret && request['cookies'] === undefined) return event;
  const cleaned: Json = { ...request };
  if (Array.isArray(headers)) {
    cleaned['headers'] = headers.map((pair) =>
      Array.isArray(pair) && secret(pair[0]) ? [pair[0], '[Filtered]'] : pair,
    );
  } else if (object(headers)) {
    const kept: Json = {};
    for (const [name, value] of Object.entries(headers as Json)) kept[name] = secret(name) ? '[Filtered]' : value;
    cleaned['headers'] = kept;
  }
  if (request['cookies'] !== undefined) cleaned['cookies'] = '[Filtered]';
  return { ...event, request: cleaned };
}

/** Trims the OS version and name a Sentry SDK reads from the system (a trailing newline). */
function trimmedContexts(event: Json): Json {
  const contexts = object(event['contexts']);
  const os = object(contexts?.['os']);
  if (!contexts || !os) return event;
  const keys = ['name', 'version', 'kernel_version', 'build'];
  const untrimmed = (key: string) => typeof os[key] === 'string' && (os[key] as string).trim() !== os[key];
  if (!keys.some(untrimmed)) return event;
  const trimmed: Json = { ...os };
  for (const key of keys) {
    if (typeof os[key] === 'string') trimmed[key] = (os[key] as string).trim();
  }
  return { ...event, contexts: { ...contexts, os: trimmed } };
}

/**
 * A Sentry event, prepared for its group; `title` is the record's (event-mapping.ts). `sent` is
 * the JSON `raw` was parsed from, if the caller has it: stored as it is when nothing is changed.
 */
export function prepareSentryEvent(
  raw: Json,
  title: string,
  errorType: string | undefined,
  sent?: Buffer,
): PreparedEvent {
  const event = withParsedUserAgent(trimmedContexts(withoutCredentials(raw)));
  const exception = mainException(event);
  const frames = framesOf(exception);
  const mechanism = object(exception?.['mechanism']);
  const handled = typeof mechanism?.['handled'] === 'boolean' ? (mechanism['handled'] as boolean) : null;
  const logentry = object(event['logentry']) ?? object(event['message']);
  const message =
    text(exception?.['value']) ??
    (typeof event['message'] === 'string' ? event['message'] : undefined) ??
    text(logentry?.['formatted']) ??
    text(logentry?.['message']);
  const level = text(event['level'])?.toLowerCase();
  const id = text(event['event_id']);
  return {
    groupKey: groupKeyOf({
      fingerprint: Array.isArray(event['fingerprint']) ? event['fingerprint'] : undefined,
      type: errorType,
      value: message ?? title,
      frames,
    }),
    sdkEnvironment: clip(text(event['environment']) ?? DEFAULT_SDK_ENVIRONMENT, 64),
    title,
    errorType: errorType ?? null,
    culprit: culpritOf(frames) ?? text(event['transaction'])?.slice(0, 500) ?? null,
    level: level && LEVELS.has(level) ? level : level === 'warn' ? 'warning' : exception ? 'error' : 'info',
    release: text(event['release'])?.slice(0, 500) ?? null,
    eventId: id && /^[0-9a-f-]{32,36}$/i.test(id) ? id.replaceAll('-', '').toLowerCase() : newEventId(),
    userKey: userKeyOf(object(event['user'])),
    handled,
    tags: tagsOf(event, handled),
    payload: compressPayload(event, event === raw ? sent : undefined),
  };
}

const newEventId = () => randomUUID().replaceAll('-', '');

/** A POST /errors body in the shape of a Sentry event, prepared for its group. */
export function prepareReportBody(body: ErrorReportBody, receivedAt: Date): PreparedEvent {
  const frames = framesFromStackText(body.stackTrace);
  const device = body.device ?? {};
  const contexts: Json = {};
  if (device.browser) contexts['browser'] = { name: device.browser, version: device.browserVersion };
  if (device.os) contexts['os'] = { name: device.os.trim(), version: device.osVersion?.trim() };
  if (device.device || device.screenResolution)
    contexts['device'] = { model: device.device, screen_resolution: device.screenResolution };
  if (device.language || device.timezone) contexts['culture'] = { locale: device.language, timezone: device.timezone };
  if (body.network) contexts['network'] = body.network;
  if (body.flags && body.flags.length > 0) contexts['flags'] = { values: body.flags };
  const headers: Json = {};
  if (device.userAgent) headers['User-Agent'] = device.userAgent;
  if (body.referrer) headers['Referer'] = body.referrer;
  const event: Json = {
    event_id: newEventId(),
    timestamp: body.timestamp ?? receivedAt.toISOString(),
    platform: 'javascript',
    level: LEVEL_OF_SEVERITY[body.severity ?? 'medium'],
    message: body.message,
    exception: {
      values: [
        {
          type: body.errorType ?? body.title,
          value: body.message,
          ...(frames.length > 0 ? { stacktrace: { frames } } : {}),
        },
      ],
    },
    ...(body.stackTrace ? { raw_stacktrace: body.stackTrace } : {}),
    ...(body.breadcrumbs ? { breadcrumbs: { values: body.breadcrumbs } } : {}),
    contexts,
    ...(body.app?.userId || body.app?.userEmail ? { user: { id: body.app?.userId, email: body.app?.userEmail } } : {}),
    ...(body.url || Object.keys(headers).length > 0 ? { request: { url: body.url, headers } } : {}),
    ...(body.app?.version ? { release: body.app.version } : {}),
    environment: body.app?.environment ?? DEFAULT_SDK_ENVIRONMENT,
    ...(body.metadata ? { extra: body.metadata } : {}),
  };
  const prepared = prepareSentryEvent(event, body.title, body.errorType);
  // Without a stack, the (normalised) title groups: POST /errors' dedup rule is title + errorType.
  prepared.groupKey = groupKeyOf({ type: body.errorType ?? '', value: body.title, frames });
  return prepared;
}
