import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { frontDoor } from './http/front-door.ts';
import { requestIdFrom } from './http/request-id.ts';
import { type RestWatch, watchForRest } from './http/at-rest.ts';
import { ResponseMemo } from './http/response-memo.ts';
import type { Config } from './config.ts';
import type { Database } from './db/database.ts';
import { PartitionKeeper } from './db/partition-keeper.ts';
import { errorAnswer, installErrorHandler } from './http/error-handler.ts';
import { buildLazySerializerFactory } from './http/lazy-serializer.ts';
import { validatorCompiler } from './http/validation.ts';
import { guardRequestInput } from './http/input-guard.ts';
import { publicApi, PUBLIC_API_PREFIX } from './public-api/plugin.ts';
import { hostedMcp } from './mcp/hosted.ts';
import { otlpIntake, OTLP_PREFIX } from './otlp/plugin.ts';
import type { App } from './routing/public-api/context.ts';
import { managementApi, MANAGEMENT_API_PREFIX } from './management/plugin.ts';
import { SENTRY_API_PREFIX, sentryCliApi } from './management/sentry-cli-api.ts';
import type { ManagementApp } from './routing/management/context.ts';
import { boardSurface, BOARD_PREFIX } from './board/plugin.ts';
import { homePage } from './board/home-page.ts';
import { dashboardSurface, DASHBOARD_PREFIX } from './dashboard/plugin.ts';
import { createHostRouter } from './board/host-routing.ts';
import { createMailer } from './mail/mailer.ts';
import { DEMO_PROJECT_ID } from './seed/first-start.ts';
import { domainOfSender, OutboxWorker, registerNotificationHandlers } from './resources/notifications/mount.ts';
import { registerShippingHandler } from './resources/features/mount.ts';
import { registerReleaseHubHandlers } from './resources/release-hub/mount.ts';
import { ScheduleWorker } from './resources/changelog/mount.ts';
import { ReleaseHealthWorker, sessionPartitions, sessionUserPartitions } from './resources/release-health/mount.ts';
import { SightingsWorker } from './resources/releases/mount.ts';
import { LinesWorker, logLinePartitions } from './resources/logs/mount.ts';
import { AlertWorker, errorEventPartitions, registerAlertHandlers } from './resources/reports/mount.ts';
import { DeliveryWorker, registerWebhookHandlers } from './resources/webhooks/mount.ts';
import { AuditRetentionWorker, registerAuditHandlers } from './resources/audit/mount.ts';
import { closeQuotaMeter, openQuotaMeter } from './http/quota.ts';
import { sentryIngestRoutes } from './resources/sentry-ingest/mount.ts';
import { createOfrep } from './ofrep/plugin.ts';
import { serializeRequest } from './http/log-redaction.ts';
import { type Actor, runAs } from './kernel/actor.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The hot reads' kept answers; `hits` counts those the front door gave. */
    responseMemo: ResponseMemo;
    /** Memory given back after `MEMORY_REST_SECONDS` without a request (http/at-rest.ts). */
    restWatch: RestWatch;
  }
}

export interface AppOptions {
  config: Config;
  db: Database;
  /** A pino logger configuration or false; defaults to JSON logs at the configured level. */
  logger?: boolean | object;
}

export async function buildApp({ config, db, logger }: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    // `silent` turns the logger off outright: pino would still build a child logger per request.
    logger:
      logger ??
      (config.logLevel === 'silent'
        ? false
        : {
            level: config.logLevel,
            redact: ['req.headers.authorization', 'req.headers["x-api-key"]', 'req.headers.cookie'],
            // URLs carry keys and tokens (sentry_key, sign-in links, invites): http/log-redaction.ts.
            serializers: { req: serializeRequest },
          }),
    bodyLimit: 1024 * 1024,
    // While shutting down, requests that still arrive on open connections are served, with
    // `Connection: close` so the client moves on (instead of Fastify's bare 503 body).
    return503OnClosing: false,
    trustProxy: config.trustProxy,
    // genReqId reads x-request-id itself, so a malformed id from a caller is replaced.
    requestIdHeader: false,
    genReqId: (request) => requestIdFrom(request.headers['x-request-id']),
    ajv: { customOptions: { allErrors: true } },
    // Serializers and validators (validation.ts) are compiled when first used, not at start.
    schemaController: { compilersFactory: { buildSerializer: buildLazySerializerFactory } },
    // Ids of any length reach their route, which answers a missing item (404) for one too long to
    // exist; Node's 16 KiB header limit bounds the whole URL first.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 16 * 1024 },
    // Errors the router raises before any route runs get the same JSON shape and request id.
    frameworkErrors: (error, request, reply) => {
      // A path segment too long or not decodable names no item: the 404 of any missing one.
      const missing = error.code === 'FST_ERR_MAX_PARAM_LENGTH' || error.code === 'FST_ERR_BAD_URL';
      void (reply as FastifyReply)
        .code(missing ? 404 : 400)
        .header('x-request-id', request.id)
        .send(missing ? errorAnswer(404, 'Not found') : errorAnswer(400, 'Malformed URL'));
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  // NUL and deep nesting are refused before any validator, hash or driver walks the input.
  app.addHook('preValidation', guardRequestInput);
  // Writes run as their caller, for the audit log (kernel/actor.ts): after each surface's
  // authentication (onRequest), before the handler. Reads need no actor and skip it.
  app.addHook('preHandler', (request, _reply, done) => {
    const actor = request.method === 'GET' || request.method === 'HEAD' ? null : actorOfRequest(request);
    if (!actor) return done();
    runAs(actor, done);
  });
  // Only JSON bodies are accepted; anything else is a 415 rather than a confusing 400.
  app.removeContentTypeParser('text/plain');
  installErrorHandler(app);
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  // A callback hook, not an async one: it runs on every response, and a promise per reply shows.
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    if (closing) reply.header('connection', 'close');
    // 204 and 304 carry no body, so no Content-Length or Content-Type either (RFC 9110 §8.6):
    // a serialised `null` would announce four bytes that never come.
    if (reply.statusCode === 204 || reply.statusCode === 304) {
      reply.removeHeader('content-type');
      done(null, null);
      return;
    }
    done(null, payload);
  });

  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    try {
      await db.get('SELECT 1 AS ok');
      return { status: 'ready' };
    } catch {
      return reply.code(503).send(errorAnswer(503, 'Database unavailable'));
    }
  });

  // Plan quotas are counted in memory and flushed every interval, and once more on close, when
  // no request is left in flight (onClose).
  const quotaMeter = openQuotaMeter({ db, flushIntervalMs: config.quotaFlushIntervalMs, log: app.log });
  app.addHook('onReady', async () => quotaMeter.start());
  app.addHook('onClose', async () => closeQuotaMeter(quotaMeter, db));

  // Each surface is one encapsulated plugin with its own prefix, hooks and OpenAPI document.
  const memo = new ResponseMemo(db);
  await app.register(async (scoped) => publicApi(scoped as App, { db, config, memo }), { prefix: PUBLIC_API_PREFIX });
  await app.register(async (scoped) => managementApi(scoped as ManagementApp, { db, config }), {
    prefix: MANAGEMENT_API_PREFIX,
  });
  const ofrep = createOfrep({ db, config, requestId: requestIdFrom, closing: () => closing });
  await ofrep.register(app);
  await app.register(async (scoped) => hostedMcp(scoped, { db, config }));
  await app.register(async (scoped) => otlpIntake(scoped, { db }), { prefix: OTLP_PREFIX });
  // sentry-cli's source map upload (chunk-upload, artifact-bundle assemble) at `/api/0/organizations/…`.
  await app.register(async (scoped) => sentryCliApi(scoped as ManagementApp, { db, config }), {
    prefix: SENTRY_API_PREFIX,
  });
  // Sentry SDKs post to `/api/<project number>/envelope/` and `/store/` (resources/sentry-ingest).
  await app.register(async (scoped) => sentryIngestRoutes(scoped, { db, config }));
  const boardMailer = createMailer(config, app.log);
  app.addHook('onClose', async () => boardMailer.close());
  await app.register(async (scoped) => boardSurface(scoped, { db, config, mailer: boardMailer }), {
    prefix: BOARD_PREFIX,
  });
  await app.register(async (scoped) => dashboardSurface(scoped), { prefix: DASHBOARD_PREFIX });
  await app.register(async (scoped) =>
    homePage(scoped, { demoBoard: config.demoEnabled ? `/b/${DEMO_PROJECT_ID}` : undefined }),
  );

  // Follower e-mails: queued by domain events in the change's transaction, sent by the worker
  // while the app runs (the one-click unsubscribe routes are the board's, board/routes.ts).
  // Publishing a changelog entry moves its linked ideas to done (the board's shipOnPublish).
  registerShippingHandler();
  registerReleaseHubHandlers();
  registerNotificationHandlers({
    messageIdDomain: domainOfSender(config.accounts.mailFrom),
    undoWindowSeconds: config.outbox.undoWindowSeconds,
  });
  const outboxMailer = createMailer(config, app.log, {
    timeoutMs: Math.max(10_000, (config.outbox.leaseSeconds * 1000) / 4),
  });
  const outbox = new OutboxWorker({ db, config, mailer: outboxMailer, log: app.log });
  app.addHook('onReady', async () => outbox.start());
  app.addHook('preClose', async () => {
    await outbox.stop();
    outboxMailer.close();
  });
  // Webhooks: queued by domain events in the change's transaction, delivered by the worker.
  registerWebhookHandlers({ publicUrl: config.publicUrl });
  const webhookMailer = createMailer(config, app.log);
  const webhooks = new DeliveryWorker({ db, config, mailer: webhookMailer, log: app.log });
  app.addHook('onReady', async () => webhooks.start());
  app.addHook('preClose', async () => {
    await webhooks.stop();
    webhookMailer.close();
  });
  // Error alerts (new group, regression, spike) and the retention of kept error events.
  const alertDomain = domainOfSender(config.accounts.mailFrom);
  registerAlertHandlers({ messageIdDomain: alertDomain });
  const alertMailer = createMailer(config, app.log);
  const alerts = new AlertWorker({ db, config, mailer: alertMailer, log: app.log, messageIdDomain: alertDomain });
  app.addHook('onReady', async () => alerts.start());
  app.addHook('preClose', async () => {
    await alerts.stop();
    alertMailer.close();
  });
  // The audit log: status changes told as domain events are recorded; old entries deleted hourly.
  registerAuditHandlers();
  const auditRetention = new AuditRetentionWorker({ db, log: app.log });
  app.addHook('onReady', async () => auditRetention.start());
  app.addHook('preClose', async () => auditRetention.stop());
  // Scheduled changelog entries: published by the worker when due, as a manual publish would.
  const changelogSchedule = new ScheduleWorker({ db, intervalMs: config.changelogScheduleIntervalMs, log: app.log });
  app.addHook('onReady', async () => changelogSchedule.start());
  app.addHook('preClose', async () => changelogSchedule.stop());
  // Release health: version-check counts written every second, old rows expired in batches.
  const releaseHealth = new ReleaseHealthWorker({
    db,
    retentionDays: config.sessionRetentionDays,
    dropCheckMs: config.releaseHealthCheckIntervalMs,
    expireEveryMs: config.sessionExpiryIntervalMs,
    log: app.log,
  });
  app.addHook('onReady', async () => releaseHealth.start());
  app.addHook('onClose', async () => releaseHealth.stop());
  // Releases first seen in live events or sessions go live as created ones do (issue 33).
  const sightings = new SightingsWorker({ db, intervalMs: config.releaseSightingIntervalMs, log: app.log });
  app.addHook('onReady', async () => sightings.start());
  app.addHook('preClose', async () => sightings.stop());
  // PostgreSQL's time partitions (issue 37): made ahead, dropped past retention, by one process at a time.
  const partitionKeeper = new PartitionKeeper({
    db,
    tables: [
      errorEventPartitions(config.errorAlerts.retentionDays),
      sessionUserPartitions(config.sessionRetentionDays),
      sessionPartitions(),
      ...logLinePartitions(config.logLines.retentionDays),
    ],
    intervalMs: config.partitionKeeperIntervalMs,
    log: app.log,
  });
  app.addHook('onReady', async () => partitionKeeper.start());
  app.addHook('preClose', async () => partitionKeeper.stop());
  const logLines = new LinesWorker(db, config.logLines, app.log);
  app.addHook('onReady', async () => logLines.start());
  app.addHook('preClose', async () => logLines.stop());

  // Repeats of the hot reads are answered before Fastify's own request handler (see front-door.ts).
  const answerFromMemo = frontDoor({
    db,
    memo,
    requestId: requestIdFrom,
    log: app.log,
    closing: () => closing,
    quota: quotaMeter,
  });
  const [fastifyHandler] = app.server.listeners('request') as ((
    request: IncomingMessage,
    response: ServerResponse,
  ) => void)[];
  if (fastifyHandler) {
    app.server.removeListener('request', fastifyHandler);
    // A board's custom domain is looked up first (usually answered from memory, see host-routing.ts).
    const hosts = createHostRouter(db, config.publicUrl);
    const handle = (request: IncomingMessage, response: ServerResponse) => {
      if (answerFromMemo(request, response)) return;
      if (!ofrep.fastPath(request, response, () => fastifyHandler(request, response)))
        fastifyHandler(request, response);
    };
    app.server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      const routed = hosts.route(request);
      if (routed === false || routed === true) handle(request, response);
      else void routed.then(() => handle(request, response));
    });
  }
  // Added after the front door took Fastify's listener: this one only counts requests.
  const restWatch = watchForRest(app.server, db, config.memoryRestSeconds);
  app.addHook('onClose', async () => restWatch.stop());
  app.decorate('restWatch', restWatch);
  app.decorate('responseMemo', memo);
  app.decorate('ofrep', ofrep);
  return app;
}

/** The caller a surface authenticated: a team account (management API) or an API key (public API). */
function actorOfRequest(request: FastifyRequest): Actor | null {
  const account = request.account;
  if (account) {
    const cli = /^signpost-cli\//.test(request.headers['user-agent'] ?? '');
    return {
      type: 'account',
      id: account.id,
      label: account.email,
      name: account.name || account.email,
      via: cli ? 'cli' : account.via,
    };
  }
  const key = request.apiKey;
  if (key) return { type: 'api_key', id: key.keyId, label: key.keyId, via: 'public-api' };
  return null;
}
