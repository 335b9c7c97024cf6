/**
 * winston through OpenTelemetry: `@opentelemetry/winston-transport` hands winston's lines to the
 * global LoggerProvider, whose OTLP/HTTP exporter posts them to Signpost.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { logs } from '@opentelemetry/api-logs';
import { OTLPLogExporter } from '@opentelemetry/exporter-logs-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchLogRecordProcessor, LoggerProvider } from '@opentelemetry/sdk-logs';
import { OpenTelemetryTransportV3 } from '@opentelemetry/winston-transport';
import winston from 'winston';
import { managedProjectSuite } from '../support/manage-fixtures.ts';

describe('winston through the OpenTelemetry winston transport', () => {
  const p = managedProjectSuite();

  it('stores winston lines with their level, message and metadata', async () => {
    const provider = new LoggerProvider({
      resource: resourceFromAttributes({ 'service.name': 'winston-app' }),
      processors: [
        new BatchLogRecordProcessor({
          exporter: new OTLPLogExporter({
            url: `${p.server.origin}/otlp/v1/logs`,
            headers: { Authorization: `Bearer ${p.liveKey}` },
          }),
        }),
      ],
    });
    logs.setGlobalLoggerProvider(provider);
    const logger = winston.createLogger({ level: 'debug', transports: [new OpenTelemetryTransportV3()] });
    logger.debug('Cache primed', { entries: 120 });
    logger.info('Listening', { port: 8080 });
    logger.warn('Slow query', { ms: 1800 });
    logger.error('Upstream refused', { status: 502 });
    // winston hands lines to its transports asynchronously.
    await new Promise((resolve) => setImmediate(resolve));
    await provider.forceFlush();
    await provider.shutdown();

    const list = await p.member.get(`/projects/${p.projectId}/logs`, { query: { source: 'winston-app' } });
    assert.equal(list.status, 200);
    const levels = Object.fromEntries(list.body.logs.map((g: any) => [g.message, g.level]));
    assert.deepEqual(levels, {
      'Cache primed': 'debug',
      Listening: 'info',
      'Slow query': 'warn',
      'Upstream refused': 'error',
    });
    const refused = list.body.logs.find((g: any) => g.message === 'Upstream refused');
    const group = await p.member.get(`/projects/${p.projectId}/logs/${refused.id}`);
    assert.equal(group.body.data.attributes.status, 502);
  });
});
