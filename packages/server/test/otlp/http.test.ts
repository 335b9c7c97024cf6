/**
 * POST /otlp/v1/logs on the wire: compression, undecodable bodies, partialSuccess for bad
 * records, keys, limits, CORS and project isolation. Protobuf bodies are built with the official
 * generated definitions the server decodes with.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { deflateSync, gzipSync } from 'node:zlib';
import { managedProject, managedProjectSuite, type ManagedProject } from '../support/manage-fixtures.ts';

const require = createRequire(import.meta.url);
const logsV1 = require('@opentelemetry/otlp-transformer/build/src/generated/root.js').opentelemetry.proto.collector.logs
  .v1;

type Json = Record<string, any>;

function request(service: string, records: unknown[]): Json {
  return {
    resourceLogs: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: service } }] },
        scopeLogs: [{ scope: { name: 'wire' }, logRecords: records }],
      },
    ],
  };
}

const nowNanos = () => `${BigInt(Date.now()) * 1_000_000n}`;

describe('POST /otlp/v1/logs over HTTP', () => {
  const p = managedProjectSuite();
  const url = () => `${p.server.origin}/otlp/v1/logs`;

  function post(body: string | Buffer, headers: Record<string, string> = {}, key: string | null = p.liveKey) {
    return fetch(url(), {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(key ? { 'x-api-key': key } : {}), ...headers },
      body: typeof body === 'string' ? body : new Uint8Array(body),
    });
  }

  async function stored(project: ManagedProject, service: string): Promise<any[]> {
    const list = await project.member.get(`/projects/${project.projectId}/logs`, {
      query: { source: service, environment: 'live', limit: 50 },
    });
    assert.equal(list.status, 200);
    const groups = [];
    for (const summary of list.body.logs) {
      groups.push((await project.member.get(`/projects/${project.projectId}/logs/${summary.id}`)).body);
    }
    return groups;
  }

  it('takes a gzip JSON body and answers {} as JSON', async () => {
    const body = request('gzip-json', [
      {
        timeUnixNano: '1544712660300000000',
        severityNumber: 10,
        severityText: 'Information',
        traceId: '5B8EFFF798038103D269B633813FC60C',
        spanId: 'EEE19B7EC3C1B174',
        body: { stringValue: 'Example log record' },
        attributes: [
          { key: 'big', value: { intValue: '9007199254740993' } },
          { key: 'small', value: { intValue: 10 } },
          { key: 'list', value: { arrayValue: { values: [{ stringValue: 'a' }, { doubleValue: 1.5 }] } } },
          { key: 'map', value: { kvlistValue: { values: [{ key: 'k', value: { boolValue: false } }] } } },
          { key: 'raw', value: { bytesValue: 'AQID' } },
          { key: '__proto__', value: { stringValue: 'just a key' } },
        ],
      },
    ]);
    const response = await post(gzipSync(JSON.stringify(body)), { 'content-encoding': 'gzip' });
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type')!, /^application\/json/);
    assert.equal(response.headers.get('access-control-allow-origin'), '*');
    assert.deepEqual(await response.json(), {});
    const [group] = await stored(p, 'gzip-json');
    assert.equal(group.message, 'Example log record');
    assert.equal(group.level, 'info');
    assert.equal(group.category, 'wire');
    assert.equal(group.lastSeenAt, '2018-12-13T14:51:00.300Z');
    assert.equal(group.data.traceId, '5b8efff798038103d269b633813fc60c');
    assert.equal(group.data.spanId, 'eee19b7ec3c1b174');
    assert.deepEqual(JSON.parse(JSON.stringify(group.data.attributes)), {
      big: '9007199254740993',
      small: 10,
      list: ['a', 1.5],
      map: { k: false },
      raw: 'AQID',
      ['__proto__']: 'just a key',
    });
  });

  it('takes a deflate protobuf body and answers an empty ExportLogsServiceResponse', async () => {
    const message = logsV1.ExportLogsServiceRequest.fromObject(
      request('deflate-proto', [
        {
          timeUnixNano: nowNanos(),
          severityNumber: 18,
          body: { stringValue: 'Disk failed' },
          traceId: Buffer.from('0af7651916cd43dd8448eb211c80319c', 'hex'),
        },
      ]),
    );
    const bytes = logsV1.ExportLogsServiceRequest.encode(message).finish();
    const response = await post(deflateSync(bytes), {
      'content-type': 'application/x-protobuf',
      'content-encoding': 'deflate',
    });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'application/x-protobuf');
    const answer = logsV1.ExportLogsServiceResponse.decode(new Uint8Array(await response.arrayBuffer()));
    assert.equal(answer.partialSuccess, null);
    const [group] = await stored(p, 'deflate-proto');
    assert.equal(group.level, 'error');
    assert.equal(group.message, 'Disk failed');
    assert.equal(group.data.traceId, '0af7651916cd43dd8448eb211c80319c');
  });

  it('cuts a message at 5,000 characters and names an empty body by its event', async () => {
    const records = [
      { severityNumber: 9, body: { stringValue: 'x'.repeat(6000) } },
      { severityNumber: 9, eventName: 'cart.emptied' },
    ];
    const response = await post(JSON.stringify(request('long', records)));
    assert.deepEqual(await response.json(), {});
    const messages = (await stored(p, 'long')).map((g) => g.message).sort();
    assert.deepEqual(messages, ['cart.emptied', 'x'.repeat(5000)]);
  });

  it('maps severity text when there is no severity number', async () => {
    const texts = ['TRACE', 'debug', 'Information', 'Warning', 'CRITICAL', 'whatever'];
    const records = texts.map((severityText) => ({ severityText, body: { stringValue: `text ${severityText}` } }));
    assert.equal((await post(JSON.stringify(request('by-text', records)))).status, 200);
    const levels = Object.fromEntries((await stored(p, 'by-text')).map((g) => [g.message, g.level]));
    assert.deepEqual(levels, {
      'text TRACE': 'trace',
      'text debug': 'debug',
      'text Information': 'info',
      'text Warning': 'warn',
      'text CRITICAL': 'error',
      'text whatever': 'info',
    });
  });

  it('stores the good records and rejects the bad ones with partialSuccess (JSON)', async () => {
    let deep: Json = { stringValue: 'bottom' };
    for (let i = 0; i < 40; i++) deep = { arrayValue: { values: [deep] } };
    const records = [
      { severityNumber: 9, body: { stringValue: 'Good one' } },
      { severityNumber: 9, traceId: 'not-hex', body: { stringValue: 'Bad trace id' } },
      { severityNumber: 99, body: { stringValue: 'Bad severity' } },
      { severityNumber: 9, body: { stringValue: 'Has \u0000 in it' } },
      { severityNumber: 9, body: deep },
      { severityNumber: 9, timeUnixNano: 'yesterday', body: { stringValue: 'Bad time' } },
      'not a record',
    ];
    const response = await post(JSON.stringify(request('partial', records)));
    assert.equal(response.status, 200);
    const answer = await response.json();
    assert.equal(answer.partialSuccess.rejectedLogRecords, '6');
    assert.match(
      answer.partialSuccess.errorMessage,
      /6 log records rejected; first: .*logRecords\[1\]: traceId must be 32 hex digits/,
    );
    const groups = await stored(p, 'partial');
    assert.deepEqual(
      groups.map((g) => g.message),
      ['Good one'],
    );
  });

  it('rejects the records under a bad resource and keeps the others', async () => {
    const good = request('bad-resource', [{ body: { stringValue: 'Under a good resource' } }]);
    const bad = request('bad-resource', [{ body: { stringValue: 'a' } }, { body: { stringValue: 'b' } }]);
    bad.resourceLogs[0].resource.attributes.push({ key: 'pid', value: { intValue: 'twelve' } });
    const response = await post(JSON.stringify({ resourceLogs: [...bad.resourceLogs, ...good.resourceLogs] }));
    const answer = await response.json();
    assert.equal(answer.partialSuccess.rejectedLogRecords, '2');
    assert.match(answer.partialSuccess.errorMessage, /resource\.attributes\.pid\.intValue must be a 64-bit integer/);
    assert.deepEqual(
      (await stored(p, 'bad-resource')).map((g) => g.message),
      ['Under a good resource'],
    );
  });

  it('answers partialSuccess in protobuf for protobuf requests', async () => {
    const message = logsV1.ExportLogsServiceRequest.fromObject(
      request('partial-proto', [
        { severityNumber: 9, body: { stringValue: 'Kept' } },
        { severityNumber: 30, body: { stringValue: 'Out of range' } },
      ]),
    );
    const response = await post(Buffer.from(logsV1.ExportLogsServiceRequest.encode(message).finish()), {
      'content-type': 'application/x-protobuf',
    });
    assert.equal(response.status, 200);
    const answer = logsV1.ExportLogsServiceResponse.decode(new Uint8Array(await response.arrayBuffer()));
    assert.equal(Number(answer.partialSuccess.rejectedLogRecords), 1);
    assert.match(answer.partialSuccess.errorMessage, /severityNumber/);
    assert.deepEqual(
      (await stored(p, 'partial-proto')).map((g) => g.message),
      ['Kept'],
    );
  });

  it('answers 400 to bodies it cannot decode', async () => {
    const cases: [string | Buffer, Record<string, string>, RegExp][] = [
      ['{"resourceLogs": [', {}, /Malformed JSON/],
      ['[1, 2]', {}, /ExportLogsServiceRequest/],
      ['{"resourceLogs": {"no": "array"}}', {}, /resourceLogs must be an array/],
      ['{"resourceLogs": [{"scopeLogs": [{"logRecords": 5}]}]}', {}, /logRecords must be an array/],
      [Buffer.from([0x0a, 0xff, 0xff, 0xff]), { 'content-type': 'application/x-protobuf' }, /Malformed protobuf/],
      [Buffer.from('not gzip at all'), { 'content-encoding': 'gzip' }, /not valid gzip/],
      ['', {}, /empty/],
    ];
    for (const [body, headers, error] of cases) {
      const response = await post(body, headers);
      assert.equal(response.status, 400, String(body));
      assert.match((await response.json()).error, error);
    }
  });

  it('answers 413 past the decompressed limit and 415 to other types and encodings', async () => {
    const bomb = gzipSync(Buffer.alloc(20 * 1024 * 1024, 0x20));
    assert.ok(bomb.length < 100_000);
    const tooLarge = await post(bomb, { 'content-encoding': 'gzip' });
    assert.equal(tooLarge.status, 413);
    assert.match((await tooLarge.json()).error, /decompressed/);
    const many = Array.from({ length: 10_001 }, () => ({}));
    const tooMany = await post(JSON.stringify(request('too-many', many)));
    assert.equal(tooMany.status, 413);
    assert.match((await tooMany.json()).error, /10000 log records/);
    const text = await post('hello', { 'content-type': 'text/plain' });
    assert.equal(text.status, 415);
    const brotli = await post('{}', { 'content-encoding': 'br' });
    assert.equal(brotli.status, 415);
  });

  it('answers 401 and 403 for keys that may not write logs', async () => {
    const body = JSON.stringify(request('keys', [{ body: { stringValue: 'x' } }]));
    assert.equal((await post(body, {}, null)).status, 401);
    assert.equal((await post(body, {}, 'svc_live_nope')).status, 401);
    const readOnly = await p.server.createProject({ scopes: ['public:read'] });
    const forbidden = await post(body, {}, readOnly.liveKey);
    assert.equal(forbidden.status, 403);
    assert.match((await forbidden.json()).error, /logs:write/);
    // Bearer works as well as X-API-Key.
    const bearer = await post(body, { authorization: `Bearer ${p.liveKey}` }, null);
    assert.equal(bearer.status, 200);
  });

  it("stores each key's records in its own project and environment only", async () => {
    const other = await managedProject(p.server);
    const body = (message: string) => JSON.stringify(request('isolated', [{ body: { stringValue: message } }]));
    assert.equal((await post(body('From the other project'), {}, other.liveKey)).status, 200);
    assert.equal((await post(body('From this project'), {}, p.liveKey)).status, 200);
    assert.equal((await post(body('From the test key'), {}, p.testKey)).status, 200);
    assert.deepEqual(
      (await stored(p, 'isolated')).map((g) => g.message),
      ['From this project'],
    );
    assert.deepEqual(
      (await stored(other, 'isolated')).map((g) => g.message),
      ['From the other project'],
    );
    const testGroups = await p.member.get(`/projects/${p.projectId}/logs`, {
      query: { source: 'isolated', environment: 'test' },
    });
    assert.deepEqual(
      testGroups.body.logs.map((g: Json) => g.message),
      ['From the test key'],
    );
    // The other project's members cannot read this project's logs.
    assert.equal((await other.owner.get(`/projects/${p.projectId}/logs`)).status, 404);
  });

  it('answers 429 with Retry-After once the plan quota is used up', async () => {
    const metered = await p.server.createProject({ monthlyQuota: 1 });
    const body = JSON.stringify(request('metered', [{ body: { stringValue: 'counted' } }]));
    const first = await post(body, {}, metered.liveKey);
    assert.equal(first.status, 200);
    assert.equal(first.headers.get('ratelimit-limit'), '1');
    const second = await post(body, {}, metered.liveKey);
    assert.equal(second.status, 429);
    assert.ok(Number(second.headers.get('retry-after')) >= 1);
  });

  it('answers CORS preflights like the public API', async () => {
    const response = await fetch(url(), {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, authorization',
      },
    });
    assert.equal(response.status, 204);
    assert.equal(response.headers.get('access-control-allow-origin'), '*');
    assert.match(response.headers.get('access-control-allow-headers')!, /Authorization/);
    assert.match(response.headers.get('access-control-allow-methods')!, /POST/);
  });
});

describe('POST /otlp/v1/logs and POST /logs', () => {
  const project = managedProjectSuite();
  it('shows OTLP groups next to POST /logs ones, grouped by the same fingerprint', async () => {
    const same = { level: 'warn', message: 'Shared line', category: 'wire', source: 'mixed' };
    assert.equal((await project.live.post('/logs', { logs: [same] })).status, 200);
    const response = await fetch(`${project.server.origin}/otlp/v1/logs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': project.liveKey },
      body: JSON.stringify(request('mixed', [{ severityNumber: 13, body: { stringValue: 'Shared line' } }])),
    });
    assert.equal(response.status, 200);
    const list = await project.member.get(`/projects/${project.projectId}/logs`, { query: { source: 'mixed' } });
    assert.equal(list.body.logs.length, 1);
    assert.equal(list.body.logs[0].occurrences, 2);
  });
});
