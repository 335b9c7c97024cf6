/**
 * pino through OpenTelemetry: `@opentelemetry/instrumentation-pino` (log sending on, its default)
 * hands pino's lines to the global LoggerProvider, whose OTLP/HTTP exporter posts them to Signpost.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { context, trace, TraceFlags } from '@opentelemetry/api';
import { logs } from '@opentelemetry/api-logs';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { OTLPLogExporter } from '@opentelemetry/exporter-logs-otlp-http';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { PinoInstrumentation } from '@opentelemetry/instrumentation-pino';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchLogRecordProcessor, LoggerProvider } from '@opentelemetry/sdk-logs';
import { managedProjectSuite } from '../support/manage-fixtures.ts';

describe('pino through the OpenTelemetry pino instrumentation', () => {
  const p = managedProjectSuite();

  it('stores pino lines with their level, message, fields and trace context', async () => {
    const provider = new LoggerProvider({
      resource: resourceFromAttributes({ 'service.name': 'pino-app' }),
      processors: [
        new BatchLogRecordProcessor({
          exporter: new OTLPLogExporter({
            url: `${p.server.origin}/otlp/v1/logs`,
            headers: { 'X-API-Key': p.liveKey },
          }),
        }),
      ],
    });
    // What the Node SDK sets up: the active span follows async work, so pino lines carry it.
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    logs.setGlobalLoggerProvider(provider);
    registerInstrumentations({ instrumentations: [new PinoInstrumentation()] });
    // The instrumentation patches pino when it is required, so it is loaded after registering.
    const pino = createRequire(import.meta.url)('pino') as typeof import('pino').default;
    const logger = pino({ level: 'trace' }, pino.destination({ dest: '/dev/null', sync: true }));
    logger.trace('Parsing request');
    logger.info({ orderId: 'o_9' }, 'Order stored');
    logger.warn('Stock low');
    logger.fatal('Out of memory');
    const traced = trace.setSpanContext(context.active(), {
      traceId: 'a3ce929d0e0e47364bf92f3577b34da6',
      spanId: '0ba902b700f067aa',
      traceFlags: TraceFlags.SAMPLED,
    });
    context.with(traced, () => logger.error({ code: 'E_TIMEOUT' }, 'Payment timed out'));
    await provider.forceFlush();
    await provider.shutdown();

    const list = await p.member.get(`/projects/${p.projectId}/logs`, { query: { source: 'pino-app' } });
    assert.equal(list.status, 200);
    const levels = Object.fromEntries(list.body.logs.map((g: any) => [g.message, g.level]));
    assert.deepEqual(levels, {
      'Parsing request': 'trace',
      'Order stored': 'info',
      'Stock low': 'warn',
      'Out of memory': 'error',
      'Payment timed out': 'error',
    });
    const timedOut = list.body.logs.find((g: any) => g.message === 'Payment timed out');
    const group = (await p.member.get(`/projects/${p.projectId}/logs/${timedOut.id}`)).body;
    assert.equal(group.data.attributes.code, 'E_TIMEOUT');
    assert.equal(group.data.traceId, 'a3ce929d0e0e47364bf92f3577b34da6');
    assert.equal(group.data.spanId, '0ba902b700f067aa');
  });
});
