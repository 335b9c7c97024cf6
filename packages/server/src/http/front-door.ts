import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/database.ts';
import { authenticateApiKeyCached, presentedKey } from './authenticate.ts';
import { ifNoneMatchHits } from './etag.ts';
import type { QuotaMeter } from './quota-meter.ts';
import { meteredLines, type ResponseMemo } from './response-memo.ts';

export interface FrontDoorOptions {
  db: Database;
  memo: ResponseMemo;
  /** The request id to answer with, given the caller's `X-Request-Id` (kept when well-formed). */
  requestId: (given: string | string[] | undefined) => string;
  log: FastifyBaseLogger;
  /** True once shutdown began: then every request goes through Fastify, which says `Connection: close`. */
  closing: () => boolean;
  /** Plan quotas: a metered project's read is answered here when the meter can count it at once. */
  quota?: QuotaMeter;
}

/**
 * Answers a repeated read from the response memo before Fastify sees the request: routing,
 * hooks, validation and serialisation were all done for the first identical request, and nothing
 * in the database changed since. The key is still checked on every request, in constant time,
 * and must still hold the route's permission; anything the memo cannot answer exactly as Fastify
 * would (no entry, a stale one, a bad or missing key, a body, a 304 entry asked for a 200) falls
 * through to Fastify. Returns whether it answered.
 */
export function frontDoor({ db, memo, requestId, log, closing, quota }: FrontDoorOptions) {
  return function answerFromMemo(request: IncomingMessage, response: ServerResponse): boolean {
    if (request.method !== 'GET' || !memo.enabled || closing()) return false;
    const url = request.url;
    const known = url === undefined ? undefined : memo.url(url);
    if (!known) return false;
    const { headers } = request;
    // A GET with a body is unusual enough to leave to Fastify, which knows what to do with it.
    if (headers['content-length'] !== undefined || headers['transfer-encoding'] !== undefined) return false;

    let keyId = '';
    let metered: { projectId: string; limit: number } | undefined;
    if (known.permission !== undefined) {
      let key: ReturnType<typeof authenticateApiKeyCached>;
      try {
        key = authenticateApiKeyCached(db, presentedKey(headers));
      } catch {
        return false; // Fastify gives the 401 with its body and logs.
      }
      if (!key?.scopes.has(known.permission)) return false;
      if (key.project.monthly_quota !== null) {
        if (!quota) return false;
        metered = { projectId: key.project.id, limit: Number(key.project.monthly_quota) };
      }
      keyId = key.keyId;
    }
    const kept = memo.answer(known, keyId);
    if (!kept) return false;
    const notModified = kept.etag !== undefined && ifNoneMatchHits(headers['if-none-match'], kept.etag);
    if (!notModified && kept.body === undefined) return false;
    // Counted last, once the memo can answer. A counter not read yet, or a refusal, goes to
    // Fastify, which reads it or gives the 429 (a refused request is not counted either way).
    let lines: string[];
    if (metered) {
      const state = quota!.consumeAtOnce(metered.projectId, metered.limit);
      if (!state?.allowed) return false;
      // The headers rateLimitHeaders gives an admitted request (no Retry-After), as Fastify writes
      // them, in the slots meteredLines keeps for them.
      lines = meteredLines(kept, notModified);
      const end = lines.length;
      lines[end - 7] = String(state.limit);
      lines[end - 5] = String(state.remaining);
      lines[end - 3] = String(state.resetSeconds);
    } else {
      lines = notModified ? kept.notModifiedHeaders : kept.okHeaders!;
    }

    const id = requestId(headers['x-request-id']);
    const logged = requestLogging(log) ? log.child({ reqId: id }) : undefined;
    const started = logged ? performance.now() : 0;
    // Shaped like a Fastify request, for Fastify's own log serialiser.
    logged?.info(
      {
        req: {
          method: request.method,
          url,
          host: headers.host,
          ip: request.socket.remoteAddress,
          socket: request.socket,
          headers,
        },
      },
      'incoming request',
    );
    // The lines are shared by every answer of this entry; the id (and a quota's values, above)
    // go into their slots right before writeHead copies them out, and nothing in between awaits.
    lines[lines.length - 1] = id;
    response.writeHead(notModified ? 304 : 200, lines);
    response.end(notModified ? undefined : kept.body);
    memo.hits++;
    logged?.info(
      { res: { statusCode: response.statusCode }, responseTime: performance.now() - started, memo: true },
      'request completed',
    );
    return true;
  };
}

/** Whether Fastify would log this request's two lines (pino at info or finer; false without a logger). */
function requestLogging(log: FastifyBaseLogger): boolean {
  const levels = log as { isLevelEnabled?: (level: string) => boolean };
  return levels.isLevelEnabled?.('info') ?? false;
}
