import type { Database } from '../db/database.ts';
import { releasedAtRest } from './at-rest.ts';

/**
 * Whole responses of the hot read routes (feature list, site config, translations), kept so the
 * front door (`front-door.ts`) can answer a repeat of the same request without Fastify.
 *
 * An entry is the answer Fastify itself gave to one URL for one API key, and it is valid only
 * while the database is unchanged: it carries the change marker read when that request began,
 * before anything was loaded, so a commit at any moment after (by this process or another) makes
 * it stale. Where the database has no change marker, nothing is kept (PostgreSQL has one through
 * its change notifications, db/pg-listener.ts).
 */
export interface MemoisedResponse {
  marker: number;
  /** Epoch milliseconds after which the answer may differ even with no write (scheduled messages). */
  staleAt: number;
  /** The headers Fastify sent, but the request id and the length. */
  headers: Record<string, string>;
  /** The body of a 200; undefined when the answer seen was a 304, which then only answers 304s. */
  body: Buffer | undefined;
  /** The entity tag without quotes, when the route sends one. */
  etag: string | undefined;
}

/**
 * A kept answer, with its header lines laid out once as `writeHead` takes them: flat name/value
 * lists whose last value is the request id's slot, filled in just before each write.
 */
export interface KeptResponse extends MemoisedResponse {
  /** For the 200: every header, the length, then `x-request-id`. Undefined without a body. */
  okHeaders: string[] | undefined;
  /** For a 304: no type or length (RFC 9110 §15.4.5, as app.ts sends it), then `x-request-id`. */
  notModifiedHeaders: string[];
  /** The two above with a plan quota's three headers before the request id; made on first use. */
  meteredOkHeaders?: string[];
  meteredNotModifiedHeaders?: string[];
}

/**
 * The header lines of a metered project's answer: `ratelimit-limit`, `-remaining` and `-reset`
 * at the 7th, 5th and 3rd slots from the end, and the request id last, all filled per answer.
 */
export function meteredLines(kept: KeptResponse, notModified: boolean): string[] {
  if (notModified) {
    kept.meteredNotModifiedHeaders ??= withQuotaSlots(kept.notModifiedHeaders);
    return kept.meteredNotModifiedHeaders;
  }
  kept.meteredOkHeaders ??= withQuotaSlots(kept.okHeaders!);
  return kept.meteredOkHeaders;
}

function withQuotaSlots(lines: string[]): string[] {
  const id = lines.length - 2;
  return [
    ...lines.slice(0, id),
    'ratelimit-limit',
    '',
    'ratelimit-remaining',
    '',
    'ratelimit-reset',
    '',
    ...lines.slice(id),
  ];
}

interface MemoisedUrl {
  /** The permission the route asks for; undefined for keyless routes. */
  permission: string | undefined;
  /** By key id ('' on keyless routes): one project and environment per key, so nothing crosses. */
  byKey: Map<string, KeptResponse>;
}

const ONE_RESPONSE_MAX_BYTES = 1024 * 1024;

export class ResponseMemo {
  private readonly urls = new Map<string, MemoisedUrl>();
  private readonly db: Database;
  private readonly maxBytes: number;
  private bytes = 0;
  /** Answers given from here; read by tests and operators, never used for decisions. */
  hits = 0;

  constructor(db: Database, maxBytes = 16 * 1024 * 1024) {
    this.db = db;
    this.maxBytes = maxBytes;
    releasedAtRest(this);
  }

  /** Forgets every kept answer (full, or the server rests: at-rest.ts). */
  release(): void {
    this.urls.clear();
    this.bytes = 0;
  }

  get enabled(): boolean {
    return this.db.changeMarker !== undefined;
  }

  /** The marker to remember a request under, read before its handler loads anything. */
  marker(): number | undefined {
    return this.db.changeMarker?.();
  }

  /** What is known about a URL: its route's permission, if any answer to it is kept. */
  url(url: string): MemoisedUrl | undefined {
    return this.urls.get(url);
  }

  /** A kept answer still valid now, or undefined. */
  answer(entry: MemoisedUrl, keyId: string): KeptResponse | undefined {
    const response = entry.byKey.get(keyId);
    if (!response || response.marker !== this.db.changeMarker?.() || Date.now() >= response.staleAt) return undefined;
    return response;
  }

  remember(url: string, permission: string | undefined, keyId: string, response: MemoisedResponse): void {
    const size = url.length + (response.body?.length ?? 0) + 512;
    if (size > ONE_RESPONSE_MAX_BYTES) return;
    // A change marker moves for every commit, so entries go stale wholesale; starting over when
    // full is as good as evicting one by one, and costs nothing on the hot path.
    if (this.bytes + size > this.maxBytes) this.release();
    let entry = this.urls.get(url);
    if (!entry || entry.permission !== permission) {
      entry = { permission, byKey: new Map() };
      this.urls.set(url, entry);
    }
    entry.byKey.set(keyId, keep(response));
    this.bytes += size;
  }
}

function keep(response: MemoisedResponse): KeptResponse {
  const lines = Object.entries(response.headers);
  const flat = (pairs: [string, string][]) => pairs.flat();
  return {
    ...response,
    okHeaders:
      response.body && flat([...lines, ['content-length', String(response.body.length)], ['x-request-id', '']]),
    notModifiedHeaders: flat([...lines.filter(([name]) => name !== 'content-type'), ['x-request-id', '']]),
  };
}
