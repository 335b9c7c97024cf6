/**
 * The management API's reads the dashboard's busiest screens make, with a personal access token:
 * the release page, the inbox of a large roadmap project, the log explorer over 100,000 groups.
 */
import {
  BENCH_LOG_DAYS,
  BENCH_LOG_GROUPS,
  BENCH_RELEASE_SESSIONS,
  BENCH_RELEASES,
  benchReleaseVersion,
  releasesProjectId,
  roadmapProjectId,
  seededSize,
} from './seed.ts';
import { inboxScenarioIds, releasePageScenarioId } from './scenario-ids.ts';
import { expectStatus, fail, type Scenario } from './scenario-kit.ts';
import type { WrkRequest } from './wrk.ts';

/**
 * GET /projects/{id}/releases/{version}/overview (the dashboard's release page: health and
 * adoption of every release for the order and the comparison, what broke, what shipped) of a
 * release in the middle of 100, the project's sessions 1,000 or 1,000,000 over two weeks. Issue
 * 33: at 1,000,000 within 20 % of its speed at 1,000.
 */
export function releasePageScenario(token: string, sessions: number): Scenario {
  const headers = { Authorization: `Bearer ${token}` };
  const version = benchReleaseVersion(BENCH_RELEASES / 2);
  const path = `/api/v1/projects/${releasesProjectId(sessions)}/releases/${version}/overview?days=14`;
  const smallest = BENCH_RELEASE_SESSIONS[0];
  return {
    id: releasePageScenarioId(sessions),
    label: `Release page API (100 releases, ${sessions.toLocaleString('en-US')} sessions)`,
    request: { path, headers },
    ...(sessions !== smallest ? { target: { of: releasePageScenarioId(smallest), share: 0.8 } } : {}),
    check: async (origin) => {
      const body = (await expectStatus(
        await fetch(`${origin}${path}`, { headers }),
        200,
        `release page (${sessions})`,
      )) as { health: { sessions: { total: number } } | null; comparison: { previous: string | null } };
      const expected = seededSize(sessions) / BENCH_RELEASES;
      if (body.health?.sessions.total !== expected)
        fail(`release page (${sessions}): ${body.health?.sessions.total} sessions, expected ${expected}`);
      if (body.comparison.previous !== benchReleaseVersion(BENCH_RELEASES / 2 - 1))
        fail(`release page (${sessions}): previous ${body.comparison.previous}`);
    },
  };
}

/**
 * The inbox's reads of a roadmap project of `size` items through the management API (issue 30:
 * within 20 % at 100,000 of 100): sorted by value (the stored per-idea value), a plain search
 * (the full-text index) and a typo in it (corrected from the index's vocabulary).
 */
export function inboxScenarios(token: string, size: number): Scenario[] {
  const headers = { Authorization: `Bearer ${token}` };
  const base = `/api/v1/projects/${roadmapProjectId(size)}/features`;
  const [valueId, searchId, typoId] = inboxScenarioIds(size) as [string, string, string];
  const items = size.toLocaleString('en');
  const get = async (origin: string, path: string, what: string) =>
    (await expectStatus(await fetch(`${origin}${path}`, { headers }), 200, what)) as any;
  const byValue = `${base}?sort=value&limit=50`;
  const search = `${base}?q=checkout&limit=50`;
  const typo = `${base}?q=chekout&limit=50`;
  return [
    {
      id: valueId,
      label: `Inbox list sorted by value (${items} items)`,
      request: { path: byValue, headers },
      check: async (origin) => {
        const page = await get(origin, byValue, 'inbox by value');
        if (page.features.length !== 50 || !(page.features[0].value > 0)) fail('inbox by value: no valued first');
      },
    },
    {
      id: searchId,
      label: `Inbox search q=checkout (${items} items)`,
      request: { path: search, headers },
      check: async (origin) => {
        const page = await get(origin, search, 'inbox search');
        if (page.features.length === 0 || page.features.some((f: any) => !/checkout/i.test(f.title)))
          fail('inbox search: not all match');
      },
    },
    {
      id: typoId,
      label: `Inbox search with a typo q=chekout (${items} items)`,
      request: { path: typo, headers },
      check: async (origin) => {
        const page = await get(origin, typo, 'inbox typo search');
        if (page.features.length === 0 || page.features.some((f: any) => !/checkout/i.test(f.title)))
          fail('inbox typo search: not all match');
      },
    },
  ];
}

/**
 * The log explorer's reads over 100,000 log groups (management API, a personal access token):
 * the default page, a level, a text search, the second page through the cursor, a week's
 * histogram. None of these is memoised: each request runs its queries.
 */
export function logExplorerScenarios(token: string, logsProjectId: string): Scenario[] {
  const headers = { Authorization: `Bearer ${token}` };
  const base = `/api/v1/projects/${logsProjectId}/logs`;
  const get = async (origin: string, path: string, what: string) =>
    (await expectStatus(await fetch(`${origin}${path}`, { headers }), 200, what)) as any;
  const cursorPage: WrkRequest = { path: base, headers };
  // The histogram's default range: the last 24 hours by hour (about 3,300 groups here).
  const histogramPath = `${base}/histogram`;
  return [
    {
      id: 'logs-list',
      label: `Logs list: first page of 50 (${BENCH_LOG_GROUPS.toLocaleString('en')} groups)`,
      request: { path: base, headers },
      check: async (origin) => {
        const page = await get(origin, base, 'logs list');
        if (page.logs.length !== 50 || !page.totalCapped || !page.nextCursor) fail('logs list: not a full page');
      },
    },
    {
      id: 'logs-list-level',
      label: 'Logs list: level=error',
      request: { path: `${base}?level=error`, headers },
      check: async (origin) => {
        const page = await get(origin, `${base}?level=error`, 'logs list by level');
        if (page.logs.length !== 50 || page.logs.some((l: any) => l.level !== 'error')) fail('logs by level');
      },
    },
    {
      id: 'logs-list-text',
      label: 'Logs list: text search q=checkout',
      request: { path: `${base}?q=checkout`, headers },
      check: async (origin) => {
        const page = await get(origin, `${base}?q=checkout`, 'logs text search');
        if (page.logs.length !== 50 || page.logs.some((l: any) => !l.message.includes('checkout')))
          fail('logs by text');
      },
    },
    {
      id: 'logs-list-cursor',
      label: 'Logs list: second page (cursor)',
      request: cursorPage,
      check: async (origin) => {
        const first = await get(origin, base, 'logs list');
        cursorPage.path = `${base}?cursor=${encodeURIComponent(first.nextCursor)}`;
        const second = await get(origin, cursorPage.path, 'logs second page');
        if (second.logs.length !== 50 || second.logs[0].lastSeenAt > first.logs[49].lastSeenAt) fail('logs cursor');
      },
    },
    {
      id: 'logs-histogram',
      label: 'Logs histogram: 24 hours by hour',
      request: { path: histogramPath, headers },
      check: async (origin) => {
        const histogram = await get(origin, histogramPath, 'logs histogram');
        const total = Object.values(histogram.totals as Record<string, number>).reduce((a, b) => a + b, 0);
        // A day's share of the groups (30 days of them), less a tenth for the day's edges.
        if (histogram.bucket !== 'hour' || total < (seededSize(BENCH_LOG_GROUPS) / BENCH_LOG_DAYS) * 0.9)
          fail(`logs histogram: ${histogram.bucket}, ${total} groups`);
      },
    },
  ];
}
