import type { IncomingHttpHeaders } from 'node:http';
import type { Database } from '../db/database.ts';
import { timingSafeEqual } from 'node:crypto';
import { apiKeyMatches, parseApiKey, type KeyEnvironment } from '../kernel/api-keys.ts';
import { ChangeCache } from './change-cache.ts';
import { ForbiddenError, UnauthorizedError } from '../kernel/errors.ts';

/**
 * The project columns authentication and the limits read themselves. The key's project is the
 * whole row its store returns; the surface that injects the lookup names its type (`P`).
 */
export interface KeyProject {
  id: string;
  monthly_quota: number | null;
}

export interface ApiKeyContext<P extends KeyProject = KeyProject> {
  keyId: string;
  environment: KeyEnvironment;
  scopes: ReadonlySet<string>;
  /** Made to be embedded in a web page or app: it may not change existing items. */
  publishable: boolean;
  project: P;
}

/** A stored key and its project, as the key lookup finds it by the lookup part of a key. */
export interface KeyRecord<P extends KeyProject = KeyProject> {
  keyId: string;
  environment: KeyEnvironment;
  /** SHA-256 of the whole key, in hex. */
  secretHash: string;
  scopes: readonly string[];
  publishable: boolean;
  revoked: boolean;
  project: P;
}

/**
 * Reads a key by its lookup part. Injected by the surface (the projects resource's store holds
 * the SQL), so this shared plumbing never imports a resource.
 */
export type KeyLookup<P extends KeyProject> = (db: Database, lookup: string) => Promise<KeyRecord<P> | undefined>;

/** Reads the key from `Authorization: Bearer …` or `X-API-Key`. Both are accepted everywhere. */
export function presentedKey(headers: IncomingHttpHeaders): string | undefined {
  const header = headers['x-api-key'];
  if (typeof header === 'string' && header.trim() !== '') return header.trim();
  const authorization = headers.authorization;
  if (authorization) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (match) return match[1];
  }
  return undefined;
}

interface StoredKey {
  /** The stored SHA-256 of the whole key, as bytes, ready for the constant-time comparison. */
  secretHash: Buffer;
  /**
   * The key as presented once it matched `secretHash`, kept in memory (never stored) for as long
   * as this memo entry lives, that is until the next commit: later requests are compared with it,
   * whole and in constant time, without hashing again. Measured, a SHA-256 per request cost the
   * cached reads about a tenth of their throughput.
   */
  verified?: Buffer;
  revoked: boolean;
  context: ApiKeyContext;
}

const keyCaches = new WeakMap<Database, ChangeCache<StoredKey | undefined>>();

function keyCache(db: Database): ChangeCache<StoredKey | undefined> {
  let cache = keyCaches.get(db);
  if (!cache) {
    cache = new ChangeCache(db);
    keyCaches.set(db, cache);
  }
  return cache;
}

/** The key's row and project, memoised until the next commit (SQLite) or read per request. */
async function loadKey<P extends KeyProject>(
  db: Database,
  lookup: string,
  find: KeyLookup<P>,
): Promise<StoredKey | undefined> {
  return keyCache(db).get(lookup, async () => {
    const record = await find(db, lookup);
    if (!record) return undefined;
    return {
      secretHash: Buffer.from(record.secretHash, 'hex'),
      revoked: record.revoked,
      context: {
        keyId: record.keyId,
        environment: record.environment,
        scopes: new Set(record.scopes),
        publishable: record.publishable,
        project: record.project,
      },
    };
  });
}

/**
 * Where a presented key is encoded for the comparison with `verified`, and a view of it per
 * length, made once: a Buffer per request showed in the profiles of the memoised reads. Keys
 * are at most 200 characters (parseApiKey), so at most 800 bytes of UTF-8.
 */
const scratch = Buffer.alloc(1024);
const scratchViews: Buffer[] = [];

function encoded(key: string): Buffer {
  const length = scratch.write(key, 'utf8');
  scratchViews[length] ??= scratch.subarray(0, length);
  return scratchViews[length]!;
}

/** Whether the presented key is the stored one: the whole key, compared in constant time. */
function matches(key: string, stored: StoredKey): boolean {
  if (stored.verified) {
    const presented = encoded(key);
    return presented.length === stored.verified.length && timingSafeEqual(presented, stored.verified);
  }
  if (!apiKeyMatches(key, stored.secretHash)) return false;
  stored.verified = Buffer.from(key);
  return true;
}

function check(key: string, environment: KeyEnvironment, stored: StoredKey | undefined): ApiKeyContext {
  if (!stored || !matches(key, stored) || stored.revoked || stored.context.environment !== environment) {
    throw new UnauthorizedError('Invalid API key');
  }
  return stored.context;
}

export async function authenticateApiKey<P extends KeyProject>(
  db: Database,
  key: string | undefined,
  find: KeyLookup<P>,
): Promise<ApiKeyContext<P>> {
  if (!key) throw new UnauthorizedError('Missing API key');
  const parsed = parseApiKey(key);
  if (!parsed) throw new UnauthorizedError('Invalid API key');
  // The memo holds what `find` returned: every caller on one database injects the same lookup.
  return check(key, parsed.environment, await loadKey(db, parsed.lookup, find)) as ApiKeyContext<P>;
}

/**
 * The same answer without a promise when the key's row is memoised and still valid; undefined
 * when it has to be read (then call `authenticateApiKey`). Throws the same 401s.
 */
export function authenticateApiKeyCached<P extends KeyProject = KeyProject>(
  db: Database,
  key: string | undefined,
): ApiKeyContext<P> | undefined {
  if (!key) throw new UnauthorizedError('Missing API key');
  const parsed = parseApiKey(key);
  if (!parsed) throw new UnauthorizedError('Invalid API key');
  const cached = keyCache(db).peek(parsed.lookup);
  return cached.found ? (check(key, parsed.environment, cached.value) as ApiKeyContext<P>) : undefined;
}

export function requireScope(context: ApiKeyContext, scope: string): void {
  if (!context.scopes.has(scope)) throw new ForbiddenError(`This API key lacks the ${scope} permission`);
}

/**
 * The route's permission, and for a route that changes existing items (`secretOnly`, the 403
 * text) a secret key: a publishable key sits in page source for anyone to copy.
 */
export function requireAccess(context: ApiKeyContext, scope: string, secretOnly: string | undefined): void {
  requireScope(context, scope);
  if (secretOnly !== undefined && context.publishable) throw new ForbiddenError(secretOnly);
}
