/**
 * Sentry envelopes (develop.sentry.dev/sdk/envelopes): a JSON header line, then items, each a
 * JSON item header line and a payload. With `length` the payload is exactly that many bytes;
 * without it, the payload runs to the next newline (or the end). Parsing works on bytes, since
 * `length` counts bytes, not characters.
 */
import { BadRequestError } from '../../kernel/errors.ts';

export interface EnvelopeItem {
  header: Record<string, unknown>;
  payload: Buffer;
}

export interface Envelope {
  header: Record<string, unknown>;
  items: EnvelopeItem[];
}

/** More items than any SDK sends in one envelope: the rest of a body this long is refused. */
const MAX_ITEMS = 1000;
const NEWLINE = 0x0a;

function jsonObject(bytes: Buffer, what: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new BadRequestError(`Malformed envelope: the ${what} is not JSON`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new BadRequestError(`Malformed envelope: the ${what} is not a JSON object`);
  }
  return value as Record<string, unknown>;
}

/** The line starting at `start`, without its newline, and where the next one starts. */
function lineAt(body: Buffer, start: number): { line: Buffer; next: number } {
  const end = body.indexOf(NEWLINE, start);
  return end === -1
    ? { line: body.subarray(start), next: body.length }
    : { line: body.subarray(start, end), next: end + 1 };
}

/**
 * Whether the line is whitespace only, as `String.prototype.trim` sees it. ASCII lines (all an SDK
 * sends) are read as bytes; a line with other bytes is decoded, for the Unicode spaces.
 */
function isBlank(line: Buffer): boolean {
  for (const byte of line) {
    if (byte >= 0x80) return line.toString('utf8').trim() === '';
    // Tab, line feed, vertical tab, form feed, carriage return, space.
    if (!(byte === 0x20 || (byte >= 0x09 && byte <= 0x0d))) return false;
  }
  return true;
}

export function parseEnvelope(body: Buffer): Envelope {
  const first = lineAt(body, 0);
  if (first.line.length === 0) throw new BadRequestError('Malformed envelope: the body is empty');
  const header = jsonObject(first.line, 'envelope header');
  const items: EnvelopeItem[] = [];
  let at = first.next;
  while (at < body.length) {
    const { line, next } = lineAt(body, at);
    // Blank lines between items (a trailing newline, an SDK's padding) carry nothing.
    if (isBlank(line)) {
      at = next;
      continue;
    }
    if (items.length >= MAX_ITEMS) throw new BadRequestError(`Malformed envelope: more than ${MAX_ITEMS} items`);
    const itemHeader = jsonObject(line, 'item header');
    if (typeof itemHeader['type'] !== 'string') throw new BadRequestError('Malformed envelope: an item has no type');
    const length = itemHeader['length'];
    if (length !== undefined && length !== null) {
      if (typeof length !== 'number' || !Number.isInteger(length) || length < 0 || next + length > body.length) {
        throw new BadRequestError('Malformed envelope: an item length does not match the body');
      }
      items.push({ header: itemHeader, payload: body.subarray(next, next + length) });
      at = next + length;
      // The newline after a payload of known length is optional.
      if (body[at] === NEWLINE) at++;
    } else {
      const payload = lineAt(body, next);
      items.push({ header: itemHeader, payload: payload.line });
      at = payload.next;
    }
  }
  return { header, items };
}

/** Parses an item's payload as a JSON object (events, logs). */
export function itemJson(item: EnvelopeItem): Record<string, unknown> {
  return jsonObject(item.payload, `${String(item.header['type'])} item`);
}

export function parseJsonObject(body: Buffer, what: string): Record<string, unknown> {
  return jsonObject(body, what);
}
