/**
 * OTLP log records (the OTLP JSON shape, see decode.ts) to the entries POST /logs stores:
 * severity to level, body to message, service.name to source, the scope name to category,
 * attributes (record, resource, scope) and the trace context to data. A record that breaks the
 * OTLP rules is rejected alone and counted in the response's partialSuccess; a body whose
 * envelope (resourceLogs, scopeLogs, logRecords) is not the OTLP structure is a 400.
 */
import { BadRequestError, PayloadTooLargeError } from '../kernel/errors.ts';
import type { LogEntry } from '../resources/logs/index.ts';

/** More records than this in one request is a 413: exporters send batches of 512 by default. */
export const MAX_RECORDS = 10_000;
/** AnyValue nesting kept in data (arrays and maps inside attributes and bodies). */
const MAX_VALUE_DEPTH = 24;
const MESSAGE_MAX = 5000;

type Json = Record<string, unknown>;

export interface MappedRequest {
  entries: LogEntry[];
  rejected: number;
  /** The first rejected record's problem, for partialSuccess.errorMessage. */
  firstProblem: string | undefined;
}

class RecordProblem extends Error {}

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A repeated field of the envelope: absent is empty, anything but an array is undecodable. */
function listAt(parent: Json, key: string, where: string): unknown[] {
  const value = parent[key];
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new BadRequestError(`Invalid OTLP body: ${where}${key} must be an array`);
  return value;
}

function objectAt(value: unknown, where: string): Json {
  if (!isObject(value)) throw new BadRequestError(`Invalid OTLP body: ${where} must be an object`);
  return value;
}

export function mapLogsRequest(request: Json): MappedRequest {
  const result: MappedRequest = { entries: [], rejected: 0, firstProblem: undefined };
  let seen = 0;
  listAt(request, 'resourceLogs', '').forEach((resourceValue, r) => {
    const resourceLogs = objectAt(resourceValue, `resourceLogs[${r}]`);
    const resource = isObject(resourceLogs['resource']) ? resourceLogs['resource'] : {};
    // A bad resource or scope rejects the records under it, not the request.
    const resourceAttributes = problemOr(() => attributesOf(resource['attributes'], 'resource.attributes'));
    listAt(resourceLogs, 'scopeLogs', `resourceLogs[${r}].`).forEach((scopeValue, s) => {
      const scopeLogs = objectAt(scopeValue, `resourceLogs[${r}].scopeLogs[${s}]`);
      const where = `resourceLogs[${r}].scopeLogs[${s}]`;
      const records = listAt(scopeLogs, 'logRecords', `${where}.`);
      seen += records.length;
      if (seen > MAX_RECORDS) throw new PayloadTooLargeError(`At most ${MAX_RECORDS} log records per request`);
      const scope = problemOr(() => scopeOf(scopeLogs['scope']));
      records.forEach((record, i) => {
        try {
          if (resourceAttributes instanceof RecordProblem) throw resourceAttributes;
          if (scope instanceof RecordProblem) throw scope;
          result.entries.push(toEntry(record, resourceAttributes, scope));
        } catch (error) {
          if (!(error instanceof RecordProblem)) throw error;
          result.rejected++;
          result.firstProblem ??= `${where}.logRecords[${i}]: ${error.message}`;
        }
      });
    });
  });
  return result;
}

/** The value, or the problem that kept it from being read. */
function problemOr<T>(read: () => T): T | RecordProblem {
  try {
    return read();
  } catch (error) {
    if (error instanceof RecordProblem) return error;
    throw error;
  }
}

interface Scope {
  name?: string;
  version?: string;
}

function scopeOf(value: unknown): Scope {
  if (!isObject(value)) return {};
  const scope: Scope = {};
  if (value['name'] !== undefined && value['name'] !== '') scope.name = text(value['name'], 'scope.name');
  if (value['version'] !== undefined && value['version'] !== '')
    scope.version = text(value['version'], 'scope.version');
  return scope;
}

function toEntry(value: unknown, resource: Json | undefined, scope: Scope): LogEntry {
  if (!isObject(value)) throw new RecordProblem('a log record must be an object');
  const severityNumber = severityNumberOf(value['severityNumber']);
  const severityText = value['severityText'] === undefined ? '' : text(value['severityText'], 'severityText');
  const eventName = value['eventName'] === undefined ? '' : text(value['eventName'], 'eventName');
  const attributes = attributesOf(value['attributes'], 'attributes');
  const traceId = idOf(value['traceId'], 'traceId', 32);
  const spanId = idOf(value['spanId'], 'spanId', 16);
  const timestamp =
    timeOf(value['timeUnixNano'], 'timeUnixNano') ?? timeOf(value['observedTimeUnixNano'], 'observedTimeUnixNano');

  const body = value['body'] === undefined || value['body'] === null ? undefined : anyValue(value['body'], 'body', 0);
  const message =
    body === undefined || body === null ? eventName : typeof body === 'string' ? body : JSON.stringify(body);

  const data: Json = {};
  if (attributes) data['attributes'] = attributes;
  if (resource) data['resource'] = resource;
  if (scope.name !== undefined) data['scope'] = scope;
  if (traceId) data['traceId'] = traceId;
  if (spanId) data['spanId'] = spanId;
  if (severityText) data['severityText'] = severityText;
  if (severityNumber) data['severityNumber'] = severityNumber;
  if (eventName) data['eventName'] = eventName;

  const entry: LogEntry = { level: levelOf(severityNumber, severityText), message: truncate(message, MESSAGE_MAX) };
  if (Object.keys(data).length > 0) entry.data = data;
  if (scope.name) entry.category = truncate(scope.name, 200);
  const service = resource?.['service.name'];
  if (typeof service === 'string' && service !== '') entry.source = truncate(service, 200);
  const version = resource?.['service.version'];
  if (typeof version === 'string' && version !== '') entry.appVersion = truncate(version, 100);
  const user = attributes?.['user.id'] ?? attributes?.['enduser.id'];
  if ((typeof user === 'string' && user !== '') || typeof user === 'number') entry.userId = truncate(String(user), 200);
  if (timestamp) entry.timestamp = timestamp;
  return entry;
}

/** TRACE 1–4, DEBUG 5–8, INFO 9–12, WARN 13–16, ERROR 17–20 and FATAL 21–24 (error here). */
export function levelOf(severityNumber: number, severityText: string): LogEntry['level'] {
  if (severityNumber >= 17) return 'error';
  if (severityNumber >= 13) return 'warn';
  if (severityNumber >= 9) return 'info';
  if (severityNumber >= 5) return 'debug';
  if (severityNumber >= 1) return 'trace';
  const name = severityText.trim().toLowerCase();
  if (/^(trace|finest|finer)/.test(name)) return 'trace';
  if (/^(debug|fine|verbose)/.test(name)) return 'debug';
  if (/^warn/.test(name)) return 'warn';
  if (/^(err|fatal|crit|alert|emerg|panic|severe)/.test(name)) return 'error';
  return 'info';
}

function severityNumberOf(value: unknown): number {
  if (value === undefined || value === null) return 0;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 24) {
    throw new RecordProblem('severityNumber must be an integer from 0 to 24');
  }
  return value;
}

function text(value: unknown, field: string): string {
  if (typeof value !== 'string') throw new RecordProblem(`${field} must be a string`);
  if (value.includes('\u0000')) throw new RecordProblem(`${field} holds U+0000`);
  return value;
}

/** A hex id of `digits` digits, lower-cased; empty or all zeros is no id. */
function idOf(value: unknown, field: string, digits: number): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string' || value.length !== digits || !/^[0-9a-fA-F]+$/.test(value)) {
    throw new RecordProblem(`${field} must be ${digits} hex digits`);
  }
  const id = value.toLowerCase();
  return /^0+$/.test(id) ? undefined : id;
}

const LATEST_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** Nanoseconds since the epoch (a decimal string, or a number) as ISO 8601; 0 or absent is unknown. */
function timeOf(value: unknown, field: string): string | undefined {
  if (value === undefined || value === null || value === '' || value === 0 || value === '0') return undefined;
  let nanos: bigint;
  if (typeof value === 'string' && /^\d{1,20}$/.test(value)) nanos = BigInt(value);
  else if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) nanos = BigInt(value);
  else if (typeof value === 'number' && Number.isFinite(value) && value >= 0) nanos = BigInt(Math.round(value));
  else throw new RecordProblem(`${field} must be nanoseconds since the epoch`);
  const ms = Number(nanos / 1_000_000n);
  if (ms > LATEST_MS) throw new RecordProblem(`${field} is past the year 9999`);
  return new Date(ms).toISOString();
}

/** KeyValue list to an object (null prototype: a key named __proto__ stays a key). */
function attributesOf(value: unknown, field: string, depth = 0): Json | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw new RecordProblem(`${field} must be an array of key-value pairs`);
  if (value.length === 0) return undefined;
  const out: Json = Object.create(null);
  for (const pair of value) {
    if (!isObject(pair)) throw new RecordProblem(`${field} must be an array of key-value pairs`);
    const key = text(pair['key'], `${field} key`);
    out[key] =
      pair['value'] === undefined || pair['value'] === null
        ? null
        : anyValue(pair['value'], `${field}.${key}`, depth + 1);
  }
  return out;
}

/** One AnyValue to plain JSON: 64-bit integers beyond 2^53 stay decimal strings, bytes stay base64. */
function anyValue(value: unknown, field: string, depth: number): unknown {
  if (depth > MAX_VALUE_DEPTH) throw new RecordProblem(`${field} nests deeper than ${MAX_VALUE_DEPTH} levels`);
  if (!isObject(value)) throw new RecordProblem(`${field} must be an AnyValue object`);
  if ('stringValue' in value) return text(value['stringValue'], field);
  if ('boolValue' in value) {
    if (typeof value['boolValue'] !== 'boolean') throw new RecordProblem(`${field}.boolValue must be a boolean`);
    return value['boolValue'];
  }
  if ('intValue' in value) {
    const int = value['intValue'];
    if (typeof int === 'number' && Number.isSafeInteger(int)) return int;
    if (typeof int === 'string' && /^-?\d{1,20}$/.test(int)) {
      const n = Number(int);
      return Number.isSafeInteger(n) ? n : int;
    }
    throw new RecordProblem(`${field}.intValue must be a 64-bit integer`);
  }
  if ('doubleValue' in value) {
    const double = value['doubleValue'];
    if (typeof double === 'number') return double;
    // The JSON encoding spells the values JSON has no number for as strings.
    if (double === 'NaN' || double === 'Infinity' || double === '-Infinity') return double;
    throw new RecordProblem(`${field}.doubleValue must be a number`);
  }
  if ('bytesValue' in value) {
    const bytes = value['bytesValue'];
    if (typeof bytes !== 'string' || !/^[A-Za-z0-9+/_-]*={0,2}$/.test(bytes)) {
      throw new RecordProblem(`${field}.bytesValue must be base64`);
    }
    return bytes;
  }
  if ('arrayValue' in value) {
    const array = value['arrayValue'];
    const values = isObject(array) ? (array['values'] ?? []) : undefined;
    if (!Array.isArray(values)) throw new RecordProblem(`${field}.arrayValue must hold a values array`);
    return values.map((item, i) => anyValue(item, `${field}[${i}]`, depth + 1));
  }
  if ('kvlistValue' in value) {
    const list = value['kvlistValue'];
    const values = isObject(list) ? (list['values'] ?? []) : undefined;
    if (!Array.isArray(values)) throw new RecordProblem(`${field}.kvlistValue must hold a values array`);
    return attributesOf(values, field, depth) ?? {};
  }
  // An empty AnyValue is the protocol's null.
  return null;
}

/** At most `max` UTF-16 units, never splitting a surrogate pair. */
function truncate(value: string, max: number): string {
  if (value.length <= max) return value;
  const cut = value.slice(0, max);
  const last = cut.charCodeAt(max - 1);
  return last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut;
}
