/**
 * OpenTelemetry logs intake: `POST /otlp/v1/logs` in OTLP/HTTP, JSON or protobuf, optionally
 * gzip or deflate compressed, so an exporter's endpoint is `<origin>/otlp`. Keys authenticate as
 * on the public API (`Authorization: Bearer` or `X-API-Key`, scope `logs:write`), the plan quota
 * counts each request, and the records are stored by the same call as POST /logs: the same
 * grouping, dedup and folded writes.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { authenticateApiKey, authenticateApiKeyCached, presentedKey, requireAccess } from '../http/authenticate.ts';
import { allowAnyOrigin } from '../http/cors.ts';
import { consumeQuota } from '../http/quota.ts';
import { rateLimitHeaders } from '../http/rate-limit.ts';
import { errorAnswer } from '../http/error-handler.ts';
import { PayloadTooLargeError, TooManyRequestsError, UnsupportedMediaTypeError } from '../kernel/errors.ts';
import type { Database } from '../db/database.ts';
import { storeLogBatch } from '../resources/logs/index.ts';
import { findKeyByLookup, type ProjectRow } from '../resources/projects/index.ts';
import { decompressBody, encodeResponse, parseJsonRequest, parseProtobufRequest } from './decode.ts';
import { mapLogsRequest } from './map.ts';

export const OTLP_PREFIX = '/otlp';
/** The largest body accepted as sent (compressed or not). */
export const MAX_BODY_BYTES = 8 * 1024 * 1024;

const JSON_TYPE = 'application/json';
const PROTOBUF_TYPE = 'application/x-protobuf';

type BodyKind = 'json' | 'protobuf';

function kindOf(request: FastifyRequest): BodyKind {
  const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  return type === PROTOBUF_TYPE ? 'protobuf' : 'json';
}

async function admit(db: Database, request: FastifyRequest, reply: FastifyReply): Promise<ProjectRow> {
  const presented = presentedKey(request.headers);
  const key =
    authenticateApiKeyCached<ProjectRow>(db, presented) ?? (await authenticateApiKey(db, presented, findKeyByLookup));
  requireAccess(key, 'logs:write', undefined);
  const quota = await consumeQuota(db, key.project.id, key.project.monthly_quota);
  if (quota) {
    if (!quota.allowed) throw new TooManyRequestsError('Quota exceeded', rateLimitHeaders(quota));
    reply.headers(rateLimitHeaders(quota));
  }
  request.apiKey = key;
  return key.project;
}

export async function otlpIntake(app: FastifyInstance, { db }: { db: Database }): Promise<void> {
  // Browser exporters post from any origin; keys travel in headers, never cookies.
  allowAnyOrigin(app, {
    methods: ['POST'],
    allowedHeaders: ['Authorization', 'X-API-Key', 'Content-Type', 'Content-Encoding', 'X-Request-Id'],
    exposedHeaders: ['Retry-After', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'X-Request-Id'],
    maxAgeSeconds: 86400,
  });
  // The body is read as bytes and decoded by the route, after the key is checked.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    [JSON_TYPE, PROTOBUF_TYPE],
    { parseAs: 'buffer', bodyLimit: MAX_BODY_BYTES },
    (_r, body, done) => done(null, body),
  );
  app.addContentTypeParser('*', (_request, _payload, done) =>
    done(new UnsupportedMediaTypeError(`Unsupported content type: send ${JSON_TYPE} or ${PROTOBUF_TYPE}`)),
  );
  // Said before the body is read, with the right limit (Fastify's own 413 names the API's 1 MiB).
  app.addHook('onRequest', (request, _reply, done) => {
    const length = Number(request.headers['content-length']);
    if (length > MAX_BODY_BYTES)
      return done(new PayloadTooLargeError(`Request body is too large (limit ${MAX_BODY_BYTES >> 20} MiB)`));
    done();
  });
  app.decorateRequest('apiKey', null);

  app.post(
    '/v1/logs',
    {
      schema: { hide: true },
      bodyLimit: MAX_BODY_BYTES,
      // The body is bytes until the handler decodes it; map.ts bounds nesting and refuses U+0000.
      config: { guardsOwnBody: true },
      // The key and the quota are checked before the body is read.
      onRequest: async (request, reply) => {
        await admit(db, request, reply);
      },
    },
    async (request, reply) => {
      const kind = kindOf(request);
      const raw = request.body as Buffer | undefined;
      if (!raw || raw.length === 0) {
        // An empty protobuf message is a valid (empty) request; an empty JSON body is not JSON.
        if (kind === 'json') return reply.code(400).send(errorAnswer(400, 'Request body is empty: send a JSON object'));
      }
      const body = await decompressBody(raw ?? Buffer.alloc(0), request.headers['content-encoding']);
      const parsed = kind === 'json' ? parseJsonRequest(body) : parseProtobufRequest(body);
      const mapped = mapLogsRequest(parsed);
      const key = request.apiKey!;
      await storeLogBatch(db, { projectId: key.project.id, environment: key.environment }, mapped.entries, new Date());
      const partial =
        mapped.rejected > 0
          ? {
              rejectedLogRecords: mapped.rejected,
              errorMessage: `${mapped.rejected} log record${mapped.rejected === 1 ? '' : 's'} rejected; first: ${mapped.firstProblem}`,
            }
          : undefined;
      return reply
        .code(200)
        .type(kind === 'json' ? JSON_TYPE : PROTOBUF_TYPE)
        .send(encodeResponse(kind, partial));
    },
  );
}
