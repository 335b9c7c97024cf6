/**
 * The events an error group keeps (issue 31), through POST /errors: with ERROR_EVENTS_PER_GROUP=5,
 * a group of 20 events keeps its first, a sample (ordinals that are powers of two) and its latest
 * 5, while its count stays exact; the spec's answer to POST /errors is unchanged (201 for a new
 * record, 200 with the same id for a repeat); titles that differ only by ids make one group and
 * distinct users are counted; test-key data stays apart from live.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type ManagedProject, managedProject } from '../../support/manage-fixtures.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';

describe('error group events kept', () => {
  let server: TestServer;
  let p: ManagedProject;
  before(async () => {
    server = await startTestServer({ env: { ERROR_EVENTS_PER_GROUP: '5' } });
    p = await managedProject(server);
  });
  after(() => server.close());

  const groups = async (query: Record<string, string> = {}) => {
    const response = await p.member.get(`/projects/${p.projectId}/error-groups`, { query });
    assert.equal(response.status, 200, response.text);
    return response.body.groups;
  };

  it('keeps the first, a sample and the latest events; the count stays exact', async () => {
    const body = (n: number) => ({
      title: 'Checkout total missing',
      message: `The total of cart c_${n} was undefined`,
      errorType: 'TypeError',
      stackTrace: 'TypeError: x\n    at total (app.js:10:5)\n    at checkout (app.js:20:5)',
      app: { version: '1.0.0', environment: 'production' as const, userId: `u${n % 3}` },
    });
    const first = await p.live.post('/errors', body(1));
    assert.equal(first.status, 201, first.text);
    for (let n = 2; n <= 20; n++) {
      const again = await p.live.post('/errors', body(n));
      assert.equal(again.status, 200, again.text);
      assert.equal(again.body.id, first.body.id);
    }
    const [group] = await groups({ q: 'Checkout total' });
    assert.equal(group.events, 20);
    assert.equal(group.users, 3);
    const events = await p.member.get(`/projects/${p.projectId}/error-groups/${group.id}/events`, {
      query: { limit: 100 },
    });
    assert.equal(events.status, 200, events.text);
    // Ordinals 1, 2, 4, 8 and the latest five, 16 to 20.
    assert.equal(events.body.kept, 9);
    const messages = [];
    for (const e of events.body.events) {
      const one = await p.member.get(`/projects/${p.projectId}/error-groups/${group.id}/events/${e.eventId}`);
      messages.push(Number(/c_(\d+)/.exec(one.body.event.message)![1]));
    }
    assert.deepEqual(messages, [20, 19, 18, 17, 16, 8, 4, 2, 1]);
  });

  it('groups titles that differ only by ids; live and test keys stay apart', async () => {
    for (const id of ['4411', '4412', '4413']) {
      const sent = await p.live.post('/errors', { title: `Order ${id} not found`, message: 'A lookup failed here.' });
      assert.equal(sent.status, 201, sent.text);
    }
    await p.test.post('/errors', { title: 'Order 4414 not found', message: 'A lookup failed here.' });
    const live = await groups({ q: 'not found', environment: 'live' });
    assert.equal(live.length, 1);
    assert.equal(live[0].events, 3);
    const test = await groups({ q: 'not found', environment: 'test' });
    assert.equal(test.length, 1);
    assert.equal(test[0].events, 1);
  });

  it('keeps a Sentry event without its credentials, its user agent parsed', async () => {
    const number = (await server.db.get<{ ingest_number: number }>('SELECT ingest_number FROM projects WHERE id = ?', [
      p.projectId,
    ]))!.ingest_number;
    const event = {
      event_id: 'a'.repeat(32),
      message: 'boom',
      environment: 'qa',
      request: {
        url: 'https://shop.example.com/cart',
        headers: {
          Authorization: 'Bearer secret-token-1',
          Cookie: 'session=secret-cookie-2',
          'User-Agent':
            'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
        },
      },
      contexts: { os: { name: 'Linux', version: '6.1.0\n' } },
    };
    const sent = await fetch(`${server.origin}/api/${number}/store/?sentry_key=${p.liveKey}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(event),
    });
    assert.equal(sent.status, 200, await sent.text());
    const [group] = await groups({ sdkEnvironment: 'qa' });
    assert.match(group.title, /^boom/);
    const stored = await p.member.get(`/projects/${p.projectId}/error-groups/${group.id}/events/${'a'.repeat(32)}`);
    assert.equal(stored.status, 200, stored.text);
    assert.equal(stored.body.event.message, 'boom');
    assert.equal(stored.body.event.request.headers.Authorization, '[Filtered]');
    assert.equal(stored.body.event.request.headers.Cookie, '[Filtered]');
    assert.doesNotMatch(stored.text, /secret-token-1|secret-cookie-2/);
    assert.equal(stored.body.event.contexts.browser.name, 'Chrome');
    assert.equal(stored.body.event.contexts.os.version, '6.1.0');
    const record = await p.member.get(`/projects/${p.projectId}/errors`, { query: { q: 'boom' } });
    assert.equal(record.body.errors[0].message, 'boom');
  });

  it('keeps a large event as sent when nothing in it changes, and filters one that has credentials', async () => {
    const number = (await server.db.get<{ ingest_number: number }>('SELECT ingest_number FROM projects WHERE id = ?', [
      p.projectId,
    ]))!.ingest_number;
    // Over 2 KB (stored compressed), with every context, so nothing is added, trimmed or filtered.
    const event = (id: string, headers: unknown, os: Record<string, string>) => ({
      event_id: id.repeat(32),
      message: `large ${id}`,
      environment: `large-${id}`,
      request: { url: 'https://shop.example.com/cart', headers },
      contexts: {
        browser: { name: 'Firefox', version: '140' },
        os,
        device: { family: 'Desktop' },
        order: { id: 'o_9' },
      },
      breadcrumbs: {
        values: Array.from({ length: 40 }, (_, i) => ({ message: `step ${i} — ü`, category: 'ui.click' })),
      },
    });
    const send = async (body: unknown) => {
      const sent = await fetch(`${server.origin}/api/${number}/store/?sentry_key=${p.liveKey}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        // Pretty-printed: the bytes as sent are not JSON.stringify's.
        body: JSON.stringify(body, null, 2),
      });
      assert.equal(sent.status, 200, await sent.text());
    };
    const stored = async (id: string) => {
      const [group] = await groups({ sdkEnvironment: `large-${id}` });
      const read = await p.member.get(`/projects/${p.projectId}/error-groups/${group.id}/events/${id.repeat(32)}`);
      assert.equal(read.status, 200, read.text);
      return read;
    };
    const plain = event('b', { Referer: 'https://shop.example.com/' }, { name: 'Linux', version: '6.1' });
    await send(plain);
    const kept = (await stored('b')).body.event;
    assert.deepEqual(kept.breadcrumbs, plain.breadcrumbs);
    assert.deepEqual(kept.contexts, plain.contexts);
    assert.deepEqual(kept.request, plain.request);
    // Headers as pairs with a credential; an OS version with a newline: filtered and trimmed.
    await send(
      event(
        'c',
        [
          ['x-sentry-auth', 'Sentry sentry_key=secret-3'],
          ['Referer', 'x'],
        ],
        { name: 'Linux', version: '6.2\n' },
      ),
    );
    const cleaned = await stored('c');
    assert.doesNotMatch(cleaned.text, /secret-3/);
    assert.deepEqual(cleaned.body.event.request.headers, [
      ['x-sentry-auth', '[Filtered]'],
      ['Referer', 'x'],
    ]);
    assert.equal(cleaned.body.event.contexts.os.version, '6.2');
    // Only the OS to trim, nothing to filter: trimmed too.
    await send(event('d', { Referer: 'y' }, { name: 'Linux ', version: '6.3' }));
    assert.equal((await stored('d')).body.event.contexts.os.name, 'Linux');
  });
});
