/**
 * The OpenFeature Remote Evaluation Protocol surface (OFREP 0.3) at `<origin>/ofrep/v1`: API keys
 * as on the public API (`Authorization: Bearer` or `X-API-Key`, permission `public:read`, the
 * plan quota), CORS for browser providers (the ETag exposed, so they can poll with
 * If-None-Match), and errors in the protocol's shape. The routes are the site-config resource's.
 *
 * Polls that change nothing are answered before Fastify (`fastPath`): the bulk request's body is
 * read, and when its key, context and the project's configuration version give the ETag the
 * client already holds, the 304 goes out at once; anything else continues into Fastify with the
 * body already read.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { FastifyError, FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { authenticateApiKey, authenticateApiKeyCached, presentedKey, requireAccess } from '../http/authenticate.ts';
import { allowAnyOrigin } from '../http/cors.ts';
import { etagOf, ifNoneMatchHits } from '../http/etag.ts';
import { consumeQuota } from '../http/quota.ts';
import { rateLimitHeaders } from '../http/rate-limit.ts';
import { HttpError, TooManyRequestsError } from '../kernel/errors.ts';
import type { App } from '../routing/public-api/context.ts';
import { findKeyByLookup, type ProjectRow } from '../resources/projects/index.ts';
import {
  bulkEtag,
  contextOf,
  OfrepError,
  OfrepFlags,
  type ProjectConfigState,
  ofrepRoutes,
} from '../resources/site-config/mount.ts';

export const OFREP_PREFIX = '/ofrep/v1';
const BULK_URL = `${OFREP_PREFIX}/evaluate/flags`;
const PERMISSION = 'public:read';
/** Bodies larger than this go to Fastify unread (a context is a few hundred bytes). */
const FAST_BODY_MAX = 16 * 1024;
const READ_BODY = Symbol('signpost.ofrepBody');

const CORS = {
  methods: ['POST'],
  allowedHeaders: ['Authorization', 'X-API-Key', 'Content-Type', 'If-None-Match'],
  exposedHeaders: ['ETag', 'Retry-After', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'X-Request-Id'],
  maxAgeSeconds: 86400,
};

export interface Ofrep {
  /** Registers the routes (at the root app; the prefix is set here). */
  register(app: FastifyInstance): Promise<void>;
  /**
   * Takes the request when it is a bulk poll it may answer with a 304; returns false for any other
   * request. A request it takes but cannot answer goes on to `next` with its body kept.
   */
  fastPath(request: IncomingMessage, response: ServerResponse, next: () => void): boolean;
  /** 304s the fast path gave; read by tests and operators, never used for decisions. */
  readonly fastHits: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    ofrep: Ofrep;
  }
}

export function createOfrep({
  db,
  config,
  requestId,
  closing,
}: {
  db: Database;
  config: Config;
  requestId: (given: string | string[] | undefined) => string;
  closing: () => boolean;
}): Ofrep {
  const flags = new OfrepFlags(db);

  async function surface(app: App): Promise<void> {
    allowAnyOrigin(app, CORS);
    app.decorateRequest('apiKey', null);
    app.addHook('onRequest', async (request, reply) => {
      const permission = request.routeOptions.config.permission;
      if (!permission) return;
      const presented = presentedKey(request.headers);
      const key =
        authenticateApiKeyCached<ProjectRow>(db, presented) ??
        (await authenticateApiKey(db, presented, findKeyByLookup));
      requireAccess(key, permission, undefined);
      request.apiKey = key;
      const quota = await consumeQuota(db, key.project.id, key.project.monthly_quota);
      if (quota) {
        if (!quota.allowed) throw new TooManyRequestsError('Quota exceeded', rateLimitHeaders(quota));
        reply.headers(rateLimitHeaders(quota));
      }
    });
    // The body a fast-path poll already read (see fastPath), handed to Fastify's JSON parser.
    app.addHook('preParsing', (request, _reply, payload, done) => {
      const read = (request.raw as IncomingMessage & { [READ_BODY]?: Buffer })[READ_BODY];
      done(null, read === undefined ? payload : Readable.from([read]));
    });
    app.setErrorHandler((error: FastifyError, request, reply) => {
      if (error instanceof OfrepError) {
        if (error.status >= 500) return reply.code(error.status).send({ errorDetails: error.message });
        return reply.code(error.status).send({
          ...(error.key === undefined ? {} : { key: error.key }),
          errorCode: error.errorCode,
          errorDetails: error.message,
        });
      }
      if (error instanceof HttpError)
        return reply.headers(error.headers).code(error.statusCode).send({ errorDetails: error.message });
      const status = error.statusCode ?? 500;
      if (status === 413) return reply.code(413).send({ errorDetails: 'Request body is too large' });
      if (status >= 400 && status < 500) {
        const key = (request.params as { key?: string } | undefined)?.key;
        return reply.code(400).send({
          ...(key === undefined ? {} : { key }),
          errorCode: 'PARSE_ERROR',
          errorDetails: 'The body must be JSON: {"context": {…}}',
        });
      }
      request.log.error({ err: error }, 'OFREP request failed');
      return reply.code(500).send({ errorDetails: 'Internal error' });
    });
    await ofrepRoutes(app, { db, config }, flags);
  }

  const exposed = CORS.exposedHeaders.join(', ');
  const etags = new Map<string, { state: ProjectConfigState; hash: string }>();

  /** The 304 a poll deserves, or undefined when Fastify must answer (any doubt, any error). */
  function notModified(request: IncomingMessage, body: Buffer): string | undefined {
    const key = authenticateApiKeyCached<ProjectRow>(db, presentedKey(request.headers));
    if (!key?.scopes.has(PERMISSION) || key.project.monthly_quota !== null) return undefined;
    const state = flags.projects.peek(key.project.id);
    if (!state.found || !state.value) return undefined;
    // A provider polls with the same body each time: its ETag is kept while the project's state
    // (a new object after any commit) is the one it was computed from.
    const text = body.toString('utf8');
    const memoKey = `${key.keyId}\0${text}`;
    const kept = etags.get(memoKey);
    let hash = kept?.state === state.value ? kept.hash : undefined;
    if (hash === undefined) {
      hash = bulkEtag(state.value, key.environment, contextOf(text === '' ? undefined : JSON.parse(text)));
      if (etags.size >= 10_000) etags.clear();
      etags.set(memoKey, { state: state.value, hash });
    }
    return ifNoneMatchHits(request.headers['if-none-match'], hash) ? hash : undefined;
  }

  let fastHits = 0;
  return {
    get fastHits() {
      return fastHits;
    },
    register: async (app) => {
      await app.register(async (scoped) => surface(scoped as App), { prefix: OFREP_PREFIX });
    },
    fastPath(request, response, next) {
      const { headers } = request;
      if (request.method !== 'POST' || request.url !== BULK_URL || !flags.projects.enabled || closing()) return false;
      if (headers['if-none-match'] === undefined || headers['transfer-encoding'] !== undefined) return false;
      // Fastify refuses other media types (415): leave those to it.
      if (!headers['content-type']?.startsWith('application/json')) return false;
      const length = Number(headers['content-length']);
      if (!(length >= 0 && length <= FAST_BODY_MAX)) return false;
      const chunks: Buffer[] = [];
      let size = 0;
      request.on('data', (chunk: Buffer) => {
        size += chunk.length;
        chunks.push(chunk);
      });
      request.once('error', () => response.destroy());
      request.once('end', () => {
        const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
        let hash: string | undefined;
        try {
          hash = size === length ? notModified(request, body) : undefined;
        } catch {
          hash = undefined; // a bad key or body: Fastify gives the error with its body.
        }
        if (hash === undefined || closing()) {
          (request as IncomingMessage & { [READ_BODY]?: Buffer })[READ_BODY] = body;
          next();
          return;
        }
        response.writeHead(304, [
          'etag',
          etagOf(hash),
          'cache-control',
          'no-cache',
          'access-control-allow-origin',
          '*',
          'access-control-expose-headers',
          exposed,
          'x-request-id',
          requestId(headers['x-request-id']),
        ]);
        response.end();
        fastHits++;
      });
      return true;
    },
  };
}
