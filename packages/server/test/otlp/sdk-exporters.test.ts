/**
 * OpenTelemetry logs from the real SDK (`@opentelemetry/sdk-logs`) through the official OTLP/HTTP
 * exporters, JSON and protobuf, unchanged but for their endpoint and key: the records are read
 * back as log groups through the management API.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { context, trace, TraceFlags } from '@opentelemetry/api';
import { SeverityNumber } from '@opentelemetry/api-logs';
import { OTLPLogExporter as JsonExporter } from '@opentelemetry/exporter-logs-otlp-http';
import { OTLPLogExporter as ProtobufExporter } from '@opentelemetry/exporter-logs-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchLogRecordProcessor, LoggerProvider, type LogRecordExporter } from '@opentelemetry/sdk-logs';
import { managedProjectSuite } from '../support/manage-fixtures.ts';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const SPAN_ID = '00f067aa0ba902b7';

/** Emits one record per severity, with attributes and a trace context, and flushes them. */
async function emitRecords(exporter: LogRecordExporter, service: string): Promise<void> {
  const provider = new LoggerProvider({
    resource: resourceFromAttributes({
      'service.name': service,
      'service.version': '2.4.1',
      'deployment.environment.name': 'prod',
    }),
    processors: [new BatchLogRecordProcessor({ exporter })],
  });
  const logger = provider.getLogger('checkout.payments', '0.3.0');
  const traced = trace.setSpanContext(context.active(), {
    traceId: TRACE_ID,
    spanId: SPAN_ID,
    traceFlags: TraceFlags.SAMPLED,
  });
  const severities: [SeverityNumber, string, string][] = [
    [SeverityNumber.TRACE, 'TRACE', 'Entering charge()'],
    [SeverityNumber.DEBUG2, 'DEBUG', 'Card token looked up'],
    [SeverityNumber.INFO, 'INFO', 'Payment accepted'],
    [SeverityNumber.WARN, 'WARN', 'Card declined, retrying'],
    [SeverityNumber.ERROR, 'ERROR', 'Payment provider timed out'],
    [SeverityNumber.FATAL, 'FATAL', 'Ledger unreachable'],
  ];
  for (const [severityNumber, severityText, body] of severities) {
    logger.emit({
      severityNumber,
      severityText,
      body: `${service}: ${body}`,
      attributes: { 'order.id': 'ord_42', attempt: 3, amount: 12.5, retried: true, 'user.id': 'usr_7' },
      context: traced,
    });
  }
  // A structured body and a record without a trace context.
  logger.emit({
    severityNumber: SeverityNumber.INFO,
    body: { event: 'refund', items: [1, 2], nested: { ok: true } },
    attributes: { 'http.request.method': 'POST' },
  });
  await provider.forceFlush();
  await provider.shutdown();
}

describe('OTLP logs from the OpenTelemetry SDK and its exporters', () => {
  const p = managedProjectSuite();
  const savedEnv = { ...process.env };
  after(() => {
    process.env = savedEnv;
  });

  async function groupsOf(service: string) {
    const list = await p.member.get(`/projects/${p.projectId}/logs`, { query: { source: service, limit: 50 } });
    assert.equal(list.status, 200);
    const groups = [];
    for (const summary of list.body.logs) {
      const one = await p.member.get(`/projects/${p.projectId}/logs/${summary.id}`);
      assert.equal(one.status, 200);
      groups.push(one.body);
    }
    return groups;
  }

  async function checkStored(service: string) {
    const groups = await groupsOf(service);
    assert.equal(groups.length, 7);
    const byMessage = new Map(groups.map((g: any) => [g.message, g]));
    const expected: [string, string][] = [
      ['Entering charge()', 'trace'],
      ['Card token looked up', 'debug'],
      ['Payment accepted', 'info'],
      ['Card declined, retrying', 'warn'],
      ['Payment provider timed out', 'error'],
      ['Ledger unreachable', 'error'],
    ];
    for (const [message, level] of expected) {
      const group = byMessage.get(`${service}: ${message}`);
      assert.ok(group, `stored: ${message}`);
      assert.equal(group.level, level, message);
      assert.equal(group.source, service);
      assert.equal(group.category, 'checkout.payments');
      assert.equal(group.appVersion, '2.4.1');
      assert.equal(group.userId, 'usr_7');
      assert.equal(group.occurrences, 1);
      assert.equal(group.environment, 'live');
      assert.equal(group.data.traceId, TRACE_ID);
      assert.equal(group.data.spanId, SPAN_ID);
      assert.deepEqual(group.data.attributes, {
        'order.id': 'ord_42',
        attempt: 3,
        amount: 12.5,
        retried: true,
        'user.id': 'usr_7',
      });
      assert.equal(group.data.resource['service.name'], service);
      assert.equal(group.data.resource['deployment.environment.name'], 'prod');
      assert.deepEqual(group.data.scope, { name: 'checkout.payments', version: '0.3.0' });
      // The record's time, not the time it arrived: emitted within the last minute.
      assert.ok(Date.now() - Date.parse(group.lastSeenAt) < 60_000);
    }
    assert.equal(byMessage.get(`${service}: Ledger unreachable`).data.severityText, 'FATAL');
    const structured = groups.find((g: any) => g.message.startsWith('{'));
    assert.deepEqual(JSON.parse(structured.message), { event: 'refund', items: [1, 2], nested: { ok: true } });
    assert.equal(structured.level, 'info');
    assert.equal(structured.data.traceId, undefined);
    assert.deepEqual(structured.data.attributes, { 'http.request.method': 'POST' });
  }

  it('stores records sent by the OTLP/HTTP JSON exporter', async () => {
    const exporter = new JsonExporter({
      url: `${p.server.origin}/otlp/v1/logs`,
      headers: { Authorization: `Bearer ${p.liveKey}` },
    });
    await emitRecords(exporter, 'checkout-json');
    await checkStored('checkout-json');
  });

  it('stores records sent by the OTLP/HTTP protobuf exporter', async () => {
    const exporter = new ProtobufExporter({
      url: `${p.server.origin}/otlp/v1/logs`,
      headers: { 'X-API-Key': p.liveKey },
    });
    await emitRecords(exporter, 'checkout-proto');
    await checkStored('checkout-proto');
  });

  it('takes its configuration from the standard environment variables, gzip included', async () => {
    process.env['OTEL_EXPORTER_OTLP_ENDPOINT'] = `${p.server.origin}/otlp`;
    process.env['OTEL_EXPORTER_OTLP_HEADERS'] = `Authorization=Bearer ${p.liveKey}`;
    process.env['OTEL_EXPORTER_OTLP_COMPRESSION'] = 'gzip';
    try {
      await emitRecords(new ProtobufExporter(), 'checkout-env-proto');
      await checkStored('checkout-env-proto');
      await emitRecords(new JsonExporter(), 'checkout-env-json');
      await checkStored('checkout-env-json');
    } finally {
      delete process.env['OTEL_EXPORTER_OTLP_ENDPOINT'];
      delete process.env['OTEL_EXPORTER_OTLP_HEADERS'];
      delete process.env['OTEL_EXPORTER_OTLP_COMPRESSION'];
    }
  });

  it('folds repeats into one group, as POST /logs does', async () => {
    const exporter = new JsonExporter({ url: `${p.server.origin}/otlp/v1/logs`, headers: { 'X-API-Key': p.liveKey } });
    const provider = new LoggerProvider({
      resource: resourceFromAttributes({ 'service.name': 'repeater' }),
      processors: [new BatchLogRecordProcessor({ exporter })],
    });
    const logger = provider.getLogger('repeat');
    for (let i = 0; i < 5; i++) logger.emit({ severityNumber: SeverityNumber.WARN, body: 'Same line again' });
    await provider.forceFlush();
    logger.emit({ severityNumber: SeverityNumber.WARN, body: 'Same line again' });
    await provider.shutdown();
    const groups = await groupsOf('repeater');
    assert.equal(groups.length, 1);
    assert.equal(groups[0].occurrences, 6);
  });
});
