import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { managedProjectSuite } from '../../support/manage-fixtures.ts';

describe('management: the log explorer', () => {
  const p = managedProjectSuite();
  const path = (rest: string) => `/projects/${p.projectId}${rest}`;
  const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();

  it('pages by cursor, most recently seen first, with hasMore and a capped total', async () => {
    const logs = Array.from({ length: 7 }, (_, i) => ({
      level: i % 2 === 0 ? 'error' : 'info',
      message: `Paged line ${i}`,
      category: 'paging',
      timestamp: at(100 - i),
    }));
    assert.equal((await p.live.post('/logs', { logs })).status, 200);
    const first = await p.member.get(path('/logs'), { query: { category: 'paging', limit: 3 } });
    assert.equal(first.status, 200);
    assert.deepEqual(
      first.body.logs.map((l: any) => l.message),
      ['Paged line 6', 'Paged line 5', 'Paged line 4'],
    );
    assert.equal(first.body.total, 7);
    assert.equal(first.body.totalCapped, false);
    assert.equal(first.body.hasMore, true);
    const second = await p.member.get(path('/logs'), {
      query: { category: 'paging', limit: 3, cursor: first.body.nextCursor },
    });
    assert.deepEqual(
      second.body.logs.map((l: any) => l.message),
      ['Paged line 3', 'Paged line 2', 'Paged line 1'],
    );
    const third = await p.member.get(path('/logs'), {
      query: { category: 'paging', limit: 3, cursor: second.body.nextCursor },
    });
    assert.deepEqual(
      third.body.logs.map((l: any) => l.message),
      ['Paged line 0'],
    );
    assert.equal(third.body.hasMore, false);
    assert.equal(third.body.nextCursor, null);
    // Offset paging still works.
    const offset = await p.member.get(path('/logs'), { query: { category: 'paging', limit: 3, offset: 3 } });
    assert.deepEqual(
      offset.body.logs.map((l: any) => l.message),
      second.body.logs.map((l: any) => l.message),
    );
  });

  it('filters by several levels, source, text and last seen', async () => {
    await p.live.post('/logs', {
      logs: [
        { level: 'warn', message: 'Disk almost full', category: 'ops', source: 'worker-1', timestamp: at(30) },
        { level: 'debug', message: 'Cache warmed', category: 'ops', source: 'worker-2', timestamp: at(20) },
        { level: 'trace', message: 'Entering handler', category: 'ops', source: 'worker-2', timestamp: at(10) },
      ],
    });
    const messages = async (query: Record<string, string>) =>
      (await p.member.get(path('/logs'), { query: { category: 'ops', ...query } })).body.logs.map(
        (l: any) => l.message,
      );
    assert.deepEqual(await messages({ level: 'warn,trace' }), ['Entering handler', 'Disk almost full']);
    assert.deepEqual(await messages({ source: 'worker-2' }), ['Entering handler', 'Cache warmed']);
    assert.deepEqual(await messages({ q: 'DISK' }), ['Disk almost full']);
    // Text is matched in any case, in the source and category too, with % and _ taken literally.
    assert.deepEqual(await messages({ q: 'WORKER-1' }), ['Disk almost full']);
    assert.deepEqual(await messages({ q: 'Cache WARMED' }), ['Cache warmed']);
    assert.deepEqual(await messages({ q: 'Disk%full' }), []);
    assert.deepEqual(await messages({ q: 'Cache_warmed' }), []);
    const counted = await p.member.get(path('/logs'), { query: { category: 'ops', q: 'ENTERING' } });
    assert.equal(counted.body.total, 1);
    assert.deepEqual(await messages({ since: at(25), until: at(15) }), ['Cache warmed']);
  });

  it('counts groups per level over time in buckets chosen from the range', async () => {
    await p.live.post('/logs', {
      logs: [
        { level: 'error', message: 'Histogram a', category: 'histo', timestamp: at(50) },
        { level: 'error', message: 'Histogram b', category: 'histo', timestamp: at(50) },
        { level: 'warn', message: 'Histogram c', category: 'histo', timestamp: at(5) },
      ],
    });
    const hour = await p.member.get(path('/logs/histogram'), {
      query: { category: 'histo', since: at(120), until: at(0) },
    });
    assert.equal(hour.status, 200);
    assert.equal(hour.body.bucket, 'minute');
    assert.equal(hour.body.buckets.length, 121);
    assert.deepEqual(hour.body.totals, { error: 2, warn: 1, info: 0, debug: 0, trace: 0 });
    const busy = hour.body.buckets.filter((b: any) => b.total > 0);
    assert.equal(busy.length, 2);
    assert.equal(busy[0].levels.error, 2);
    assert.equal(busy[1].levels.warn, 1);

    const day = await p.member.get(path('/logs/histogram'), { query: { category: 'histo' } });
    assert.equal(day.body.bucket, 'hour');
    assert.equal(day.body.buckets.length >= 24, true);
    assert.equal(day.body.totals.error, 2);
    const week = await p.member.get(path('/logs/histogram'), {
      query: { since: at(60 * 24 * 30), level: 'warn', category: 'histo' },
    });
    assert.equal(week.body.bucket, 'day');
    assert.deepEqual(week.body.totals, { error: 0, warn: 1, info: 0, debug: 0, trace: 0 });
  });

  it('counts no further than 1,000: a capped total, then the pages by cursor to the end', async () => {
    for (let batch = 0; batch < 11; batch++) {
      const logs = Array.from({ length: 100 }, (_, i) => ({
        level: 'debug',
        message: `Capped line ${batch * 100 + i}`,
        category: 'capped',
        timestamp: at(2000 - batch * 100 - i),
      }));
      assert.equal((await p.live.post('/logs', { logs })).status, 200);
    }
    const first = await p.member.get(path('/logs'), { query: { category: 'capped', limit: 200 } });
    assert.equal(first.body.total, 1001);
    assert.equal(first.body.totalCapped, true);
    let seen = first.body.logs.length;
    let cursor = first.body.nextCursor;
    while (cursor) {
      const page = await p.member.get(path('/logs'), { query: { category: 'capped', limit: 200, cursor } });
      seen += page.body.logs.length;
      cursor = page.body.nextCursor;
    }
    assert.equal(seen, 1100);
    const searched = await p.member.get(path('/logs'), { query: { q: 'capped line 10', limit: 200 } });
    // "Capped line 10", "… 100" to "… 109" and "… 1000" to "… 1099".
    assert.equal(searched.body.logs.length, 111);
    assert.equal(searched.body.hasMore, false);
  });

  it('refuses bad input in words and keeps other teams out', async () => {
    for (const query of [
      { level: 'fatal' },
      { cursor: 'not-a-cursor' },
      { cursor: Buffer.from('2026-01-01T00:00:00.000Z|x').toString('base64url'), offset: '5' },
      { since: 'yesterday' },
    ]) {
      const response = await p.member.get(path('/logs'), { query });
      assert.equal(response.status, 400, JSON.stringify(query));
      assert.match(JSON.stringify(response.body), /Invalid|must/);
    }
    for (const query of [{ since: at(0), until: at(10) }, { since: at(60 * 24 * 800), until: at(0) }, { level: 'x' }]) {
      assert.equal((await p.member.get(path('/logs/histogram'), { query })).status, 400, JSON.stringify(query));
    }
    assert.equal((await p.outsider.get(path('/logs'))).status, 404);
    assert.equal((await p.outsider.get(path('/logs/histogram'))).status, 404);
    const any = (await p.member.get(path('/logs'))).body.logs[0];
    assert.equal((await p.outsider.get(path(`/logs/${any.id}`))).status, 404);
    assert.equal((await p.member.get(path('/logs/log_missing'))).status, 404);
  });

  it('shows a group with its occurrences, first and last seen and the last entry data', async () => {
    await p.live.post('/logs', {
      logs: [
        { level: 'error', message: 'Group page line', data: { attempt: 1 }, timestamp: at(40) },
        { level: 'error', message: 'Group page line', data: { attempt: 2 }, timestamp: at(10) },
      ],
    });
    const [group] = (await p.member.get(path('/logs'), { query: { q: 'Group page line' } })).body.logs;
    const full = (await p.member.get(path(`/logs/${group.id}`))).body;
    assert.equal(full.occurrences, 2);
    assert.equal(full.firstSeenAt, at(40).slice(0, 16) + full.firstSeenAt.slice(16));
    assert.ok(full.firstSeenAt < full.lastSeenAt);
    assert.deepEqual(full.data, { attempt: 2 });
    assert.equal((await p.member.patch(path(`/logs/${group.id}`), { status: 'resolved' })).status, 403);
    assert.equal((await p.admin.patch(path(`/logs/${group.id}`), { status: 'resolved' })).body.status, 'resolved');
  });
});
