/**
 * Log lines (issue 32) through POST /logs and the management API: lines with their own data and
 * time, the histogram counting lines, attribution as sets, field filters, the time range, the
 * lines around a line, the live tail, fatal kept apart, and the worker's cap and retention.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../../src/config.ts';
import { LinesWorker } from '../../../src/resources/logs/mount.ts';
import { managedProjectSuite } from '../../support/manage-fixtures.ts';

const silent = { error() {}, warn() {}, info() {}, debug() {} } as never;

describe('log lines: what a team debugging an incident reads', () => {
  const p = managedProjectSuite();
  const path = (rest: string) => `/projects/${p.projectId}${rest}`;
  const at = (secondsAgo: number) => new Date(Date.now() - secondsAgo * 1000).toISOString();
  const groupOf = async (query: Record<string, string>) => {
    const list = await p.member.get(path('/logs'), { query });
    assert.equal(list.status, 200);
    return list.body.logs as any[];
  };

  it('keeps 50 heartbeats as 50 lines with their own data, newest first; the answer is unchanged', async () => {
    const logs = Array.from({ length: 50 }, (_, i) => ({
      level: 'info',
      message: 'heartbeat',
      category: 'beat',
      data: { i },
      timestamp: at(100 - i),
    }));
    const sent = await p.live.post('/logs', { logs });
    assert.equal(sent.status, 200);
    assert.deepEqual(sent.body, { accepted: 50 });
    const [group] = await groupOf({ category: 'beat' });
    assert.equal(group.occurrences, 50);
    const lines = await p.member.get(path(`/logs/${group.id}/lines`), { query: { limit: 30 } });
    assert.equal(lines.status, 200);
    assert.equal(lines.body.lines.length, 30);
    assert.deepEqual(
      lines.body.lines.slice(0, 3).map((l: any) => l.data),
      [{ i: 49 }, { i: 48 }, { i: 47 }],
    );
    assert.equal(lines.body.lines[0].timestamp, logs[49]!.timestamp);
    const rest = await p.member.get(path(`/logs/${group.id}/lines`), {
      query: { limit: 30, cursor: lines.body.nextCursor },
    });
    assert.equal(rest.body.lines.length, 20);
    assert.equal(rest.body.hasMore, false);
    assert.deepEqual(rest.body.lines.at(-1).data, { i: 0 });
  });

  it('counts a burst of 300 lines as 300 in the histogram and in the group chart', async () => {
    const burst = Array.from({ length: 100 }, () => ({
      level: 'error',
      message: 'Gateway timeout after 30s',
      category: 'burst',
    }));
    for (let i = 0; i < 3; i++) assert.equal((await p.live.post('/logs', { logs: burst })).status, 200);
    const histogram = await p.member.get(path('/logs/histogram'), { query: { category: 'burst' } });
    assert.equal(histogram.status, 200);
    assert.equal(histogram.body.totals.error, 300);
    const minutes = await p.member.get(path('/logs/histogram'), { query: { category: 'burst', since: at(3600) } });
    assert.equal(minutes.body.bucket, 'minute');
    assert.equal(minutes.body.totals.error, 300);
    const [group] = await groupOf({ category: 'burst' });
    const chart = await p.member.get(path(`/logs/${group.id}/histogram`));
    assert.equal(chart.status, 200);
    assert.equal(chart.body.totals.error, 300);
    const lines = await p.member.get(path('/logs/histogram'), { query: { category: 'burst', q: 'gateway' } });
    assert.equal(lines.body.totals.error, 300);
  });

  it('finds a message sent by two sources, versions and users by each of them', async () => {
    const line = { level: 'warn', message: 'Payment retry', category: 'attrib' };
    await p.live.post('/logs', {
      logs: [
        { ...line, source: 'checkout-json', appVersion: '1.0.0', userId: 'u1' },
        { ...line, source: 'checkout-proto', appVersion: '1.1.0', userId: 'u2' },
        { ...line, source: 'checkout-proto', appVersion: '1.1.0', userId: 'u2' },
      ],
    });
    const queries: Record<string, string>[] = [
      { source: 'checkout-json' },
      { source: 'checkout-proto' },
      { appVersion: '1.0.0' },
      { userId: 'u2' },
    ];
    for (const query of queries) {
      const groups = await groupOf({ category: 'attrib', ...query });
      assert.equal(groups.length, 1, JSON.stringify(query));
    }
    assert.equal((await groupOf({ category: 'attrib', source: 'nobody' })).length, 0);
    const [group] = await groupOf({ category: 'attrib' });
    const full = await p.member.get(path(`/logs/${group.id}`));
    assert.deepEqual(full.body.attribution.sources, [
      { value: 'checkout-proto', count: 2 },
      { value: 'checkout-json', count: 1 },
    ]);
    assert.equal(full.body.attribution.users.length, 2);
    const lines = await p.member.get(path('/logs/lines'), { query: { category: 'attrib', source: 'checkout-json' } });
    assert.equal(lines.body.lines.length, 1);
    assert.equal(lines.body.lines[0].appVersion, '1.0.0');
  });

  it("filters lines by data fields: one order's lines, a prefix, a field's presence", async () => {
    const logs = [41, 42, 42, 43].map((orderId, i) => ({
      level: 'info',
      message: `Order step ${i}`,
      category: 'orders',
      data: { orderId, path: `/api/orders/${orderId}`, nested: { plan: i === 0 ? 'pro' : 'free' } },
    }));
    logs.push({ level: 'info', message: 'Order step string', category: 'orders', data: { orderId: '42' } as never });
    logs.push({ level: 'info', message: 'No order', category: 'orders', data: { other: 1 } as never });
    assert.equal((await p.live.post('/logs', { logs })).status, 200);
    const find = async (query: Record<string, string>) =>
      (await p.member.get(path('/logs/lines'), { query: { category: 'orders', ...query } })).body.lines.map(
        (l: any) => l.message,
      );
    assert.deepEqual((await find({ q: 'data.orderId = 42' })).sort(), [
      'Order step 1',
      'Order step 2',
      'Order step string',
    ]);
    assert.deepEqual(await find({ fields: 'data.orderId=43' }), ['Order step 3']);
    assert.deepEqual(await find({ q: 'data.path = /api/orders/4*' }).then((m: string[]) => m.length), 4);
    assert.deepEqual(await find({ q: 'data.nested.plan = "pro"' }), ['Order step 0']);
    assert.equal((await find({ q: 'has:data.orderId' })).length, 5);
    assert.deepEqual(await find({ q: 'has:data.other' }), ['No order']);
    assert.deepEqual(await find({ q: 'step data.orderId = 41' }), ['Order step 0']);
    const chart = await p.member.get(path('/logs/histogram'), {
      query: { category: 'orders', q: 'data.orderId = 42' },
    });
    assert.equal(chart.body.totals.info, 3, 'the histogram counts the lines the field filter finds');
    const bad = await p.member.get(path('/logs/lines'), { query: { q: 'data.a..b = 1' } });
    assert.equal(bad.status, 400);
    const notField = await p.member.get(path('/logs/lines'), { query: { fields: 'hello' } });
    assert.equal(notField.status, 400);
    assert.match(JSON.stringify(notField.body), /fields/);
  });

  it('finds a rare field value beyond the newest 5,000 lines (PostgreSQL: through its GIN index)', async () => {
    const old = Date.now() - 7_200_000;
    await p.live.post('/logs', {
      logs: [{ level: 'info', message: 'Rare order', category: 'rare', data: { rareId: 7 }, timestamp: at(7200) }],
    });
    for (let batch = 0; batch < 52; batch++) {
      const logs = Array.from({ length: 100 }, (_, i) => ({
        level: 'debug',
        message: 'Filler',
        category: 'rare',
        data: { rareId: i === 0 && batch === 0 ? 7 : 1000 + i, common: 1 },
        timestamp: new Date(old + 60_000 + batch * 1000 + i).toISOString(),
      }));
      assert.equal((await p.live.post('/logs', { logs })).status, 200);
    }
    const found = await p.member.get(path('/logs/lines'), { query: { q: 'data.rareId = 7', limit: 5 } });
    assert.deepEqual(
      found.body.lines.map((l: any) => l.message),
      ['Filler', 'Rare order'],
    );
    const common = await p.member.get(path('/logs/lines'), {
      query: { category: 'rare', q: 'data.common = 1', limit: 3 },
    });
    assert.equal(common.body.lines.length, 3);
    assert.equal(common.body.hasMore, true);
    const next = await p.member.get(path('/logs/lines'), {
      query: { q: 'data.rareId = 7', limit: 1, cursor: found.body.nextCursor ?? undefined },
    });
    assert.equal(next.status, 200);
  });

  it('filters lines by their own time and shows the lines of every group around one line', async () => {
    const base = Date.now() - 3_600_000;
    const t = (s: number) => new Date(base + s * 1000).toISOString();
    await p.live.post('/logs', {
      logs: [
        { level: 'info', message: 'Range early', category: 'range', timestamp: t(0) },
        { level: 'info', message: 'Range middle', category: 'range', timestamp: t(600) },
        { level: 'error', message: 'Range middle neighbour', category: 'range-other', timestamp: t(630) },
        { level: 'info', message: 'Range late', category: 'range', timestamp: t(1200) },
      ],
    });
    const lines = await p.member.get(path('/logs/lines'), {
      query: { category: 'range', from: t(300), to: t(900) },
    });
    assert.deepEqual(
      lines.body.lines.map((l: any) => l.message),
      ['Range middle'],
    );
    const around = await p.member.get(path(`/logs/lines/${lines.body.lines[0].id}/around`));
    assert.equal(around.status, 200);
    assert.deepEqual(
      around.body.lines.map((l: any) => l.message),
      ['Range middle', 'Range middle neighbour'],
    );
    assert.equal((await p.member.get(path('/logs/lines/99999999/around'))).status, 404);
    assert.equal((await p.outsider.get(path('/logs/lines'))).status >= 403, true);
    const badCursor = await p.member.get(path('/logs/lines'), { query: { cursor: 'nonsense' } });
    assert.equal(badCursor.status, 400);
  });

  it('keeps fatal apart from error on the line (the group stays error, as the spec has five levels)', async () => {
    await p.live.post('/logs', {
      logs: [{ level: 'error', message: 'Out of memory', category: 'fatal', data: { severity: 'fatal' } }],
    });
    const lines = await p.member.get(path('/logs/lines'), { query: { category: 'fatal' } });
    assert.equal(lines.body.lines[0].level, 'error');
    assert.equal(lines.body.lines[0].severity, 'fatal');
    assert.equal((await p.live.post('/logs', { logs: [{ level: 'fatal', message: 'x' }] })).status, 400);
  });

  it('tails new lines live, filtered like the list, within a second of their POST', async () => {
    const controller = new AbortController();
    const response = await fetch(`${p.member.baseUrl}${path('/logs/tail')}?category=tail`, {
      headers: p.member.headers,
      signal: controller.signal,
    });
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /text\/event-stream/);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    const readUntil = async (pattern: RegExp, ms: number) => {
      const deadline = Date.now() + ms;
      while (!pattern.test(text)) {
        const left = deadline - Date.now();
        if (left <= 0) return false;
        const chunk = await Promise.race([
          reader.read(),
          new Promise<null>((resolve) => setTimeout(() => resolve(null), left)),
        ]);
        if (!chunk || chunk.done) return pattern.test(text);
        text += decoder.decode(chunk.value, { stream: true });
      }
      return true;
    };
    assert.equal(await readUntil(/event: ready/, 2000), true);
    const posted = Date.now();
    await p.live.post('/logs', {
      logs: [
        { level: 'info', message: 'Not tailed', category: 'elsewhere' },
        { level: 'warn', message: 'Tailed line', category: 'tail', data: { k: 1 } },
      ],
    });
    assert.equal(await readUntil(/Tailed line/, 1000), true, 'the line arrived within a second');
    assert.ok(Date.now() - posted < 1000);
    assert.doesNotMatch(text, /Not tailed/);
    controller.abort();
  });

  it('caps a group to its newest lines plus its first, and expires lines past the retention', async () => {
    const old = new Date(Date.now() - 20 * 86_400_000).toISOString();
    const logs = Array.from({ length: 12 }, (_, i) => ({
      level: 'debug',
      message: 'capped',
      category: 'cap',
      data: { i },
      timestamp: at(500 - i),
    }));
    await p.live.post('/logs', { logs });
    await p.live.post('/logs', { logs: [{ level: 'debug', message: 'ancient', category: 'old', timestamp: old }] });
    const config = loadConfig({ LOG_LINES_PER_GROUP: '5', LOG_LINES_WORKER_MS: '0' } as never).logLines;
    const worker = new LinesWorker(p.server.db, config, silent);
    const done = await worker.runPass();
    assert.ok(done.capped >= 6);
    assert.ok(done.expired >= 1);
    const [group] = await groupOf({ category: 'cap' });
    assert.equal(group.occurrences, 12, 'the count stays exact');
    const kept = await p.member.get(path(`/logs/${group.id}/lines`));
    assert.deepEqual(
      kept.body.lines.map((l: any) => l.data.i),
      [11, 10, 9, 8, 7, 0],
    );
    const ancient = await p.member.get(path('/logs/lines'), { query: { category: 'old' } });
    assert.equal(ancient.body.lines.length, 0);
  });

  /** Every line of the group's page, page by page (`limit` a page), as their `data.k`. */
  const allOfGroup = async (groupId: string, limit: number) => {
    const seen: unknown[] = [];
    let cursor: string | undefined;
    do {
      const page = await p.member.get(path(`/logs/${groupId}/lines`), {
        query: { limit, ...(cursor ? { cursor } : {}) },
      });
      assert.equal(page.status, 200);
      seen.push(...page.body.lines.map((l: any) => l.data.k));
      cursor = page.body.hasMore ? page.body.nextCursor : undefined;
    } while (cursor);
    return seen;
  };

  it("orders a group's lines by their time across writes whose times interleave (its spans)", async () => {
    // One write a line, then one write of several: each write is a span of ids, not of time.
    for (const [k, ago] of [40, 10, 50, 20, 60, 30].entries())
      await p.live.post('/logs', {
        logs: [{ level: 'info', message: 'spans', category: 'spans', data: { k }, timestamp: at(ago) }],
      });
    await p.live.post('/logs', {
      logs: [70, 5, 35, 45].map((ago, i) => ({
        level: 'info',
        message: 'spans',
        category: 'spans',
        data: { k: 6 + i },
        timestamp: at(ago),
      })),
    });
    const [group] = await groupOf({ category: 'spans' });
    // Newest first: 5, 10, 20, 30, 35, 40, 45, 50, 60, 70 seconds ago.
    const expected = [7, 1, 3, 5, 8, 0, 9, 2, 4, 6];
    assert.deepEqual(await allOfGroup(group.id, 3), expected);
    assert.deepEqual(await allOfGroup(group.id, 4), expected);
    assert.deepEqual(await allOfGroup(group.id, 100), expected);
    // A time range reads the spans that reach into it: 35 to 70 seconds ago.
    const older = await p.member.get(path(`/logs/${group.id}/lines`), { query: { to: at(32), limit: 4 } });
    assert.equal(older.status, 200);
    assert.deepEqual(
      older.body.lines.map((l: any) => l.data.k),
      [8, 0, 9, 2],
    );
  });

  it('reads no line twice when the cap deletes the newest ids and the next write takes them again', async () => {
    // The write's last line (the greatest id) is old: the cap deletes it, and SQLite gives its id to the next line.
    await p.live.post('/logs', {
      logs: [100, 10, 20, 90].map((ago, k) => ({
        level: 'info',
        message: 'tail',
        category: 'tail-ids',
        data: { k },
        timestamp: at(ago),
      })),
    });
    const config = loadConfig({ LOG_LINES_PER_GROUP: '2', LOG_LINES_WORKER_MS: '0' } as never).logLines;
    await new LinesWorker(p.server.db, config, silent).runPass();
    const [group] = await groupOf({ category: 'tail-ids' });
    assert.deepEqual(await allOfGroup(group.id, 10), [1, 2, 0]);
    await p.live.post('/logs', {
      logs: [{ level: 'info', message: 'tail', category: 'tail-ids', data: { k: 4 }, timestamp: at(1) }],
    });
    assert.deepEqual(await allOfGroup(group.id, 10), [4, 1, 2, 0]);
    assert.deepEqual(await allOfGroup(group.id, 1), [4, 1, 2, 0]);
  });
});
