/**
 * Who sent a Sentry request, tried in the order Sentry SDKs use: `sentry_key` in the query
 * (browser SDKs, which avoid a preflight that way), the `X-Sentry-Auth` header, then the key of
 * the envelope header's `dsn` (tunnels); Signpost's own `Authorization` and `X-API-Key` work too.
 * The key is checked as the public API checks it (http/authenticate.ts); a key that is not
 * valid, or not one of the project with that ingest number, gets one 403, so the answer never
 * tells whether the project exists.
 */
import type { FastifyRequest } from 'fastify';
import type { Database } from '../../db/database.ts';
import {
  type ApiKeyContext,
  authenticateApiKey,
  authenticateApiKeyCached,
  presentedKey,
} from '../../http/authenticate.ts';
import { consumeQuota } from '../../http/quota.ts';
import { rateLimitHeaders } from '../../http/rate-limit.ts';
import { ForbiddenError, TooManyRequestsError, UnauthorizedError } from '../../kernel/errors.ts';
import { findKeyByLookup, type ProjectRow } from '../projects/index.ts';

export type IngestKey = ApiKeyContext<ProjectRow>;

const REFUSED = 'Invalid key for this project';

/** `Sentry sentry_version=7, sentry_key=<key>, sentry_client=…` → the key. */
export function keyFromSentryAuth(header: string | string[] | undefined): string | undefined {
  if (typeof header !== 'string') return undefined;
  const match = /(?:^|[\s,])sentry_key\s*=\s*([^,\s]+)/i.exec(header.replace(/^\s*Sentry\s+/i, ' '));
  return match?.[1];
}

/** The user part of a DSN, `https://<key>@host/<number>`. */
export function keyFromDsn(dsn: unknown): string | undefined {
  if (typeof dsn !== 'string' || !URL.canParse(dsn)) return undefined;
  const user = new URL(dsn).username;
  return user === '' ? undefined : decodeURIComponent(user);
}

/** The key the request carries outside its body, if any. */
export function keyOutsideBody(request: FastifyRequest): string | undefined {
  const query = request.query as Record<string, unknown> | undefined;
  const fromQuery = query?.['sentry_key'];
  if (typeof fromQuery === 'string' && fromQuery !== '') return fromQuery;
  return keyFromSentryAuth(request.headers['x-sentry-auth']) ?? presentedKey(request.headers);
}

/** The key's context, if it is a valid key of the project with this ingest number; else a 403. */
export async function admitKey(db: Database, presented: string | undefined, projectNumber: string): Promise<IngestKey> {
  if (!presented) throw new UnauthorizedError('Missing key: use the DSN, sentry_key, X-Sentry-Auth or X-API-Key');
  let key: IngestKey;
  try {
    key =
      authenticateApiKeyCached<ProjectRow>(db, presented) ?? (await authenticateApiKey(db, presented, findKeyByLookup));
  } catch (error) {
    if (error instanceof UnauthorizedError) throw new ForbiddenError(REFUSED);
    throw error;
  }
  if (!/^[0-9]{1,15}$/.test(projectNumber) || Number(key.project.ingest_number) !== Number(projectNumber)) {
    throw new ForbiddenError(REFUSED);
  }
  return key;
}

export function requireScopes(key: IngestKey, scopes: Iterable<string>): void {
  for (const scope of scopes) {
    if (!key.scopes.has(scope)) throw new ForbiddenError(`This key lacks the ${scope} permission`);
  }
}

/** Counts the request against the plan quota: a 429 with Retry-After and Sentry's rate-limit header. */
export async function consumeIngestQuota(db: Database, key: IngestKey): Promise<Record<string, string>> {
  const quota = await consumeQuota(db, key.project.id, key.project.monthly_quota);
  if (!quota) return {};
  const headers = rateLimitHeaders(quota);
  if (!quota.allowed) {
    // `<seconds>::organization:<reason>`: every category, the whole project (develop.sentry.dev, rate limiting).
    headers['X-Sentry-Rate-Limits'] = `${headers['Retry-After']}::organization:quota_exceeded`;
    throw new TooManyRequestsError('Quota exceeded', headers);
  }
  return headers;
}
