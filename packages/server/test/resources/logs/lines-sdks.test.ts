/**
 * Log lines from the real clients (issue 32): the project's pino transport (@signpost/logger/pino,
 * built as published) and `@opentelemetry/sdk-logs` with the official OTLP/HTTP exporter. Each
 * sends 50 heartbeats and a fatal line; the lines come back with their data, and fatal stays
 * apart from error as the line's severity.
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { SeverityNumber } from '@opentelemetry/api-logs';
import { OTLPLogExporter } from '@opentelemetry/exporter-logs-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchLogRecordProcessor, LoggerProvider } from '@opentelemetry/sdk-logs';
import { managedProjectSuite } from '../../support/manage-fixtures.ts';

const ROOT = fileURLToPath(new URL('../../../../../', import.meta.url));

describe('log lines from the pino transport and the OpenTelemetry SDK', () => {
  const p = managedProjectSuite();
  const path = (rest: string) => `/projects/${p.projectId}${rest}`;
  const linesOf = async (query: Record<string, string>) => {
    const found = await p.member.get(path('/logs/lines'), { query: { limit: '100', ...query } });
    assert.equal(found.status, 200);
    return found.body.lines as any[];
  };

  before(() => {
    // The transport as published: its dist/ (built from source, as `npm publish` would; `npm test`
    // at the root built it before any lane ran: scripts/test-build.mjs says why).
    if (process.env['SIGNPOST_TEST_PREBUILT'] === '1') return;
    const build = spawnSync('npm', ['run', 'build', '-w', '@signpost/logger', '--silent'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    assert.equal(build.status, 0, `${build.stdout}\n${build.stderr}`);
  });

  it('keeps every pino heartbeat as a line with its fields; fatal is the line severity', async () => {
    const require = createRequire(import.meta.url);
    const pino = require('pino') as typeof import('pino').default;
    const transport = (await import('@signpost/logger/pino')).default;
    const stream = await transport({
      apiKey: p.liveKey,
      baseUrl: `${p.server.origin}/api/public/v1`,
      source: 'pino-heartbeat',
      flushIntervalMs: 50,
    });
    const logger = pino({ level: 'trace' }, stream);
    for (let i = 0; i < 50; i++) logger.info({ i, category: 'pino-beat' }, 'pino heartbeat');
    logger.fatal({ category: 'pino-beat', orderId: 7 }, 'pino out of memory');
    await new Promise<void>((resolve) => stream.end(resolve));
    // The transport's last flush may still be on its way when the stream says it ended.
    for (let tries = 0; tries < 50; tries++) {
      if ((await linesOf({ category: 'pino-beat' })).length === 51) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const beats = await linesOf({ category: 'pino-beat', level: 'info' });
    assert.equal(beats.length, 50);
    assert.deepEqual(
      beats.map((l) => l.data.i).sort((a, b) => a - b),
      [...Array(50).keys()],
    );
    assert.equal(beats[0].source, 'pino-heartbeat');
    const [fatal] = await linesOf({ category: 'pino-beat', level: 'error' });
    assert.equal(fatal.severity, 'fatal');
    assert.equal(fatal.data.orderId, 7);
    assert.equal((await linesOf({ q: 'data.orderId = 7' })).length, 1);
  });

  it('keeps every OpenTelemetry record as a line with its attributes, trace and fatal severity', async () => {
    const provider = new LoggerProvider({
      resource: resourceFromAttributes({ 'service.name': 'otel-heartbeat', 'service.version': '3.1.0' }),
      processors: [
        new BatchLogRecordProcessor({
          exporter: new OTLPLogExporter({
            url: `${p.server.origin}/otlp/v1/logs`,
            headers: { 'X-API-Key': p.liveKey },
          }),
        }),
      ],
    });
    const logger = provider.getLogger('otel-beat');
    for (let i = 0; i < 50; i++)
      logger.emit({
        severityNumber: SeverityNumber.INFO,
        severityText: 'INFO',
        body: 'otel heartbeat',
        attributes: { i },
      });
    logger.emit({ severityNumber: SeverityNumber.FATAL, severityText: 'FATAL', body: 'otel crashed' });
    await provider.forceFlush();
    await provider.shutdown();
    const beats = await linesOf({ category: 'otel-beat', level: 'info' });
    assert.equal(beats.length, 50);
    assert.deepEqual(
      beats.map((l) => l.data.attributes.i).sort((a, b) => a - b),
      [...Array(50).keys()],
    );
    assert.equal(beats[0].source, 'otel-heartbeat');
    assert.equal(beats[0].appVersion, '3.1.0');
    assert.equal((await linesOf({ category: 'otel-beat', q: 'data.attributes.i = 17' })).length, 1);
    const [fatal] = await linesOf({ category: 'otel-beat', level: 'error' });
    assert.equal(fatal.severity, 'fatal');
    const histogram = await p.member.get(path('/logs/histogram'), { query: { category: 'otel-beat' } });
    assert.equal(histogram.body.totals.info, 50);
    assert.equal(histogram.body.totals.error, 1);
  });
});
