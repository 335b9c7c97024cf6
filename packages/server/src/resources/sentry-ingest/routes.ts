/**
 * Sentry-compatible ingest: `POST /api/<ingest number>/envelope/` and `/store/`, so an app
 * reports to Signpost with a Sentry SDK by setting its DSN to `http(s)://<key>@<host>/<number>`
 * and nothing else. Event items go through the same write as POST /errors (dedup, history,
 * regression), log items through the same write as POST /logs, session items into release
 * health (resources/release-health), user feedback (`feedback`, `user_report`) as bug reports
 * linked to their event's error group; other item types are accepted
 * and dropped, and counted (counters.ts). Answers any origin (browser SDKs report cross-origin).
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { findInputProblem } from '../../http/input-guard.ts';
import { BadRequestError } from '../../kernel/errors.ts';
import type { Scope } from '../../kernel/scope.ts';
import { storeLogBatch } from '../logs/index.ts';
import {
  feedbackFromEvent,
  feedbackFromUserReport,
  prepareSentryEvent,
  recordError,
  recordSentryFeedback,
} from '../reports/index.ts';
import { recordSessionItems, type SessionItem } from '../release-health/index.ts';
import { admitKey, consumeIngestQuota, type IngestKey, keyFromDsn, keyOutsideBody, requireScopes } from './auth.ts';
import { BODY_LIMIT, decodeBody } from './body.ts';
import { countItem } from './counters.ts';
import { type Envelope, itemJson, parseEnvelope, parseJsonObject } from './envelope.ts';
import { errorReportFromEvent } from './event-mapping.ts';
import { logEntriesFromItem } from './log-mapping.ts';

export interface IngestDeps {
  db: Database;
  config: Config;
}

const ALLOWED_HEADERS =
  'Content-Type, X-Sentry-Auth, Content-Encoding, sentry-trace, baggage, Authorization, X-API-Key';
const EXPOSED_HEADERS =
  'Retry-After, X-Sentry-Rate-Limits, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, X-Request-Id';
/** Log entries per write, as POST /logs takes them. */
const LOG_BATCH = 100;

type Params = { projectNumber: string };

/** Throws a 400 for NUL characters or nesting too deep, as every JSON body of the API is checked. */
function guard(value: unknown): void {
  const problem = findInputProblem(value);
  if (problem) throw new BadRequestError(`Invalid field ${problem.field}: ${problem.message}`, [problem]);
}

function eventId(value: unknown): string | undefined {
  return typeof value === 'string' && /^[0-9a-fA-F-]{32,36}$/.test(value)
    ? value.replaceAll('-', '').toLowerCase()
    : undefined;
}

export async function sentryIngestRoutes(app: FastifyInstance, { db, config }: IngestDeps): Promise<void> {
  // Sentry SDKs send envelopes as application/x-sentry-envelope, browsers as text/plain, some as
  // JSON or octet-stream, compressed or not: every body is taken as bytes and read here.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: BODY_LIMIT }, (_request, body, done) => {
    done(null, body);
  });
  app.addHook('onRequest', (_request, reply, done) => {
    reply.header('access-control-allow-origin', '*').header('access-control-expose-headers', EXPOSED_HEADERS);
    done();
  });

  const preflight = async (_request: FastifyRequest, reply: FastifyReply) =>
    reply
      .code(204)
      .headers({
        'access-control-allow-methods': 'POST, OPTIONS',
        'access-control-allow-headers': ALLOWED_HEADERS,
        'access-control-max-age': '86400',
        'content-length': '0',
      })
      .send();

  const ingestScope = (key: IngestKey): Scope => ({ projectId: key.project.id, environment: key.environment });

  /**
   * An event item read into what its write needs: its id, the error report and the event its
   * group keeps. Synchronous, and called without binding the parsed event to a variable of the
   * async handlers: the parsed 30 KB event (some thousand objects) is garbage once this returns,
   * instead of living in their suspended frames until the writer's batch commits, where every
   * young-generation collection meanwhile copied it (issue 31's profile). `sent`: the event's JSON
   * as it arrived, stored as it is where nothing in it is changed.
   */
  const readEvent = (event: Record<string, unknown>, sent: Buffer) => {
    guard(event);
    const now = new Date();
    const report = errorReportFromEvent(event, now);
    const prepared = prepareSentryEvent(event, report.title, report.errorType, sent);
    return { id: eventId(event['event_id']), now, report, prepared };
  };

  /**
   * Reads an event item and hands it to the error writer: its id and the write's promise (counted
   * as accepted once written). Not async, and its caller keeps only these two across the write:
   * the writer lets the report's body go once it took the record's columns from it (takeColumns),
   * which a reference held here to await the write would keep alive.
   */
  const sendEvent = (scope: Scope, event: Record<string, unknown>, sent: Buffer) => {
    const { id, now, report, prepared } = readEvent(event, sent);
    const written = recordError(
      db,
      scope,
      report,
      now,
      config.errorHistoryRetentionDays,
      prepared,
      config.errorEventsPerGroup,
    ).then(() => countItem(db, 'accepted', 'event'));
    return { id, written };
  };

  const envelope = async (request: FastifyRequest<{ Params: Params }>, reply: FastifyReply) => {
    const raw = (request.body as Buffer | undefined) ?? Buffer.alloc(0);
    const outside = keyOutsideBody(request);
    // A key outside the body is checked before the body is even decompressed.
    let key = outside === undefined ? undefined : await admitKey(db, outside, request.params.projectNumber);
    const parsed: Envelope = parseEnvelope(await decodeBody(raw, request.headers['content-encoding']));
    key ??= await admitKey(db, keyFromDsn(parsed.header['dsn']), request.params.projectNumber);
    const types = parsed.items.map((item) => String(item.header['type']));
    const needed = new Set<string>();
    if (types.some((type) => type === 'event' || type === 'feedback' || type === 'user_report')) {
      needed.add('errors:write');
    }
    if (types.includes('log')) needed.add('logs:write');
    if (types.includes('session') || types.includes('sessions')) needed.add('errors:write');
    // Only dropped items: any key that may write errors or logs may send them.
    if (needed.size === 0 && !key.scopes.has('logs:write')) needed.add('errors:write');
    requireScopes(key, needed);
    reply.headers(await consumeIngestQuota(db, key));
    const scope = ingestScope(key);
    let id = eventId(parsed.header['event_id']);
    // Session items (release health) are read first and written together, in one transaction.
    const sessions: SessionItem[] = [];
    for (const item of parsed.items) {
      const type = item.header['type'];
      if (type === 'session' || type === 'sessions') {
        const payload = itemJson(item);
        guard(payload);
        sessions.push({ type, payload });
      }
    }
    if (sessions.length > 0) {
      const { counted, ignored } = await recordSessionItems(db, scope, sessions);
      for (let i = 0; i < counted; i++) countItem(db, 'accepted', 'session');
      for (let i = 0; i < ignored; i++) countItem(db, 'dropped', 'session');
    }
    for (const item of parsed.items) {
      const type = String(item.header['type']);
      if (type === 'event') {
        const sent = sendEvent(scope, itemJson(item), item.payload);
        id ??= sent.id;
        await sent.written;
      } else if (type === 'log') {
        const payload = itemJson(item);
        guard(payload);
        const entries = logEntriesFromItem(payload);
        for (let i = 0; i < entries.length; i += LOG_BATCH) {
          await storeLogBatch(db, scope, entries.slice(i, i + LOG_BATCH), new Date());
        }
        countItem(db, 'accepted', 'log');
      } else if (type === 'feedback' || type === 'user_report') {
        // User feedback: a bug report linked to the error group of its event (reports/feedback.ts).
        const payload = itemJson(item);
        guard(payload);
        const feedback = type === 'feedback' ? feedbackFromEvent(payload) : feedbackFromUserReport(payload);
        if (feedback) {
          await recordSentryFeedback(db, scope, feedback, new Date());
          countItem(db, 'accepted', type);
        } else countItem(db, 'dropped', type);
      } else if (type !== 'session' && type !== 'sessions') {
        countItem(db, 'dropped', type);
      }
    }
    return reply.code(200).send(id === undefined ? {} : { id });
  };

  const store = async (request: FastifyRequest<{ Params: Params }>, reply: FastifyReply) => {
    const raw = (request.body as Buffer | undefined) ?? Buffer.alloc(0);
    const key = await admitKey(db, keyOutsideBody(request), request.params.projectNumber);
    requireScopes(key, ['errors:write']);
    const body = await decodeBody(raw, request.headers['content-encoding']);
    const event = parseJsonObject(body, 'event');
    reply.headers(await consumeIngestQuota(db, key));
    const sent = sendEvent(ingestScope(key), event, body);
    await sent.written;
    return reply.code(200).send({ id: sent.id ?? randomUUID().replaceAll('-', '') });
  };

  const options = { schema: { hide: true }, config: { guardsOwnBody: true } };
  for (const path of ['/api/:projectNumber/envelope', '/api/:projectNumber/store'] as const) {
    app.options(path, { schema: { hide: true } }, preflight);
  }
  app.post('/api/:projectNumber/envelope', options, envelope);
  app.post('/api/:projectNumber/store', options, store);
}
