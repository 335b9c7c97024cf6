/**
 * What the benchmark sends: one scenario per measured request, each with the figure the server
 * issue asks of it and a check, run by hand before measuring, that the server answers it rightly.
 */
import {
  BENCH_BOARD_IDEAS,
  BENCH_BOARD_PROJECT_ID,
  BENCH_LOG_GROUPS,
  BENCH_METERED_QUOTA,
  BENCH_ROADMAP_SIZES,
  roadmapProjectId,
} from './seed.ts';
import type { WrkRequest } from './wrk.ts';

export const API = '/api/public/v1';

export interface Scenario {
  id: string;
  label: string;
  request: WrkRequest;
  /**
   * What the issue asks of it: a share of the ceiling, log entries per second, or a share of
   * another scenario's ratio to the ceiling on the same database (`of`, measured in the same run).
   */
  target?: { ratio: number } | { entriesPerSecond: number } | { of: string; share: number };
  entriesPerRequest?: number;
  /** Checks one request by hand before the run: right status, right shape. */
  check: (origin: string) => Promise<void>;
}

/** A wrong answer or a missing tool: the run stops (after its clean-up, which drops a PostgreSQL database). */
export class BenchFailure extends Error {}

export function fail(message: string): never {
  throw new BenchFailure(message);
}

export async function expectStatus(response: Response, status: number, what: string): Promise<unknown> {
  const text = await response.text();
  if (response.status !== status) fail(`${what}: expected ${status}, got ${response.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : undefined;
}

/** Every scenario id, in run order (the seed reads it to know what a selection needs). */
export const SCENARIO_IDS = [
  'features',
  'features-metered',
  'site-config',
  'translations-304',
  'ofrep-bulk-304',
  'errors-new',
  'errors-duplicate',
  'envelope',
  'envelope-repeat',
  'sessions',
  'logs',
  'logs-distinct',
  'board-ideas',
  'board-ideas-304',
  'board-search',
  'board-idea',
  ...BENCH_ROADMAP_SIZES.map(roadmapScenarioId),
  ...BENCH_ROADMAP_SIZES.flatMap(inboxScenarioIds),
  'logs-list',
  'logs-list-level',
  'logs-list-text',
  'logs-list-cursor',
  'logs-histogram',
] as const;

export function roadmapScenarioId(size: number): string {
  return `roadmap-${size >= 1000 ? `${size / 1000}k` : size}`;
}

/** The inbox's list (management API) of a roadmap project of `size` items: by value, a search, a typo. */
export function inboxScenarioIds(size: number): string[] {
  const suffix = size >= 1000 ? `${size / 1000}k` : `${size}`;
  return [`inbox-value-${suffix}`, `inbox-search-${suffix}`, `inbox-typo-${suffix}`];
}

/** The scenarios, for a project, its key, a tag unique to this run and the `de` translations' hash. */
export function scenarios(
  key: string,
  projectId: string,
  runId: string,
  translationsHash: string,
  manage?: { token: string; logsProjectId?: string | undefined },
  more: { meteredKey?: string; ingestNumber?: number; roadmapKeys?: Map<number, string>; ofrepEtag?: string } = {},
): Scenario[] {
  const json = { 'Content-Type': 'application/json', 'X-API-Key': key };
  const errorBody = (title: string) =>
    JSON.stringify({
      title,
      message: "TypeError: Cannot read properties of undefined (reading 'total') in checkout",
      errorType: 'TypeError',
      severity: 'high',
      stackTrace:
        'TypeError: Cannot read properties of undefined\n    at total (checkout.js:10:5)\n    at submit (checkout.js:42:3)',
      url: 'https://app.example.com/checkout',
      app: { version: '1.4.2', environment: 'production' },
      device: { browser: 'Firefox', os: 'Linux' },
    });
  const uniqueError = errorBody(`Bench error ${runId} #XXX`).split('XXX');
  // 100 distinct lines, as a logger's batch of a few seconds would be. `batch` goes into every
  // message: empty, every request upserts the same 100 log groups (after the first request, each
  // upsert counts a repeat on an existing row); numbered per request, all 100 lines are new.
  const logBatchOf = (batch: string) =>
    JSON.stringify({
      logs: Array.from({ length: 100 }, (_, i) => ({
        level: ['info', 'warn', 'error', 'debug'][i % 4],
        category: `module-${i % 10}`,
        message: `Request ${i}${batch} handled: GET /api/items/${i} answered in ${10 + i} ms`,
        data: { route: `/api/items/${i}`, ms: 10 + i },
        appVersion: '1.4.2',
      })),
    });
  const logBatch = logBatchOf('');
  const distinctLogParts = logBatchOf(' of batch XXX').split('XXX');
  const checkLogs = async (origin: string, body: string, what: string) => {
    const answer = (await expectStatus(
      await fetch(`${origin}${API}/logs`, { method: 'POST', headers: json, body }),
      200,
      what,
    )) as { accepted: number };
    if (answer.accepted !== 100) fail(`${what} accepted ${answer.accepted}, expected 100`);
  };
  return [
    {
      id: 'features',
      label: 'GET /features (50 items)',
      request: { path: `${API}/features`, headers: { 'X-API-Key': key } },
      target: { ratio: 0.35 },
      check: async (origin) => {
        const body = (await expectStatus(
          await fetch(`${origin}${API}/features`, { headers: { 'x-api-key': key } }),
          200,
          'GET /features',
        )) as {
          features: unknown[];
        };
        if (body.features.length !== 50) fail(`GET /features returned ${body.features.length} items, expected 50`);
      },
    },
    ...(more.meteredKey ? [meteredFeaturesScenario(more.meteredKey)] : []),
    {
      id: 'site-config',
      label: 'GET /site-config',
      request: { path: `${API}/site-config?projectId=${projectId}` },
      target: { ratio: 0.7 },
      check: async (origin) =>
        void (await expectStatus(
          await fetch(`${origin}${API}/site-config?projectId=${projectId}`),
          200,
          'GET /site-config',
        )),
    },
    {
      id: 'translations-304',
      label: 'GET /translations → 304',
      request: {
        path: `${API}/translations?locale=de`,
        headers: { 'X-API-Key': key, 'If-None-Match': `"${translationsHash}"` },
      },
      target: { ratio: 0.7 },
      check: async (origin) => {
        const headers = { 'x-api-key': key, 'if-none-match': `"${translationsHash}"` };
        await expectStatus(
          await fetch(`${origin}${API}/translations?locale=de`, { headers }),
          304,
          'GET /translations with If-None-Match',
        );
      },
    },
    ...(more.ofrepEtag ? [ofrepBulk304Scenario(key, more.ofrepEtag)] : []),
    {
      id: 'errors-new',
      label: 'POST /errors (new)',
      request: { method: 'POST', path: `${API}/errors`, headers: json, uniqueBody: { parts: uniqueError } },
      target: { ratio: 0.2 },
      check: async (origin) => {
        const body = { method: 'POST', headers: json, body: errorBody(`Bench error ${runId} check`) };
        await expectStatus(await fetch(`${origin}${API}/errors`, body), 201, 'POST /errors (new)');
      },
    },
    {
      id: 'errors-duplicate',
      label: 'POST /errors (duplicate)',
      request: {
        method: 'POST',
        path: `${API}/errors`,
        headers: json,
        body: errorBody(`Bench error ${runId} repeated`),
      },
      target: { ratio: 0.2 },
      check: async (origin) => {
        const body = { method: 'POST', headers: json, body: errorBody(`Bench error ${runId} repeated`) };
        await expectStatus(await fetch(`${origin}${API}/errors`, body), 201, 'POST /errors (first of the duplicates)');
        const again = (await expectStatus(
          await fetch(`${origin}${API}/errors`, body),
          200,
          'POST /errors (duplicate)',
        )) as { duplicate: boolean };
        if (again.duplicate !== true) fail('POST /errors (duplicate) did not answer duplicate: true');
      },
    },
    ...(more.ingestNumber === undefined
      ? []
      : [
          envelopeScenario(key, more.ingestNumber, runId, 'new'),
          envelopeScenario(key, more.ingestNumber, runId, 'repeat'),
          sessionScenario(key, more.ingestNumber, runId),
        ]),
    {
      id: 'logs',
      label: 'POST /logs (100 entries, same batch each time)',
      request: { method: 'POST', path: `${API}/logs`, headers: json, body: logBatch },
      entriesPerRequest: 100,
      target: { entriesPerSecond: 150_000 },
      check: (origin) => checkLogs(origin, logBatch, 'POST /logs'),
    },
    {
      id: 'logs-distinct',
      label: 'POST /logs (100 entries, all new)',
      request: { method: 'POST', path: `${API}/logs`, headers: json, uniqueBody: { parts: distinctLogParts } },
      entriesPerRequest: 100,
      target: { entriesPerSecond: 150_000 },
      check: (origin) => checkLogs(origin, distinctLogParts.join('check'), 'POST /logs (all new)'),
    },
    ...boardScenarios(),
    ...[...(more.roadmapKeys ?? new Map<number, string>())].map(([size, roadmapKey]) =>
      roadmapScenario(size, roadmapKey),
    ),
    ...(manage
      ? [...(more.roadmapKeys ?? new Map<number, string>()).keys()].flatMap((size) =>
          inboxScenarios(manage.token, size),
        )
      : []),
    ...(manage?.logsProjectId ? logExplorerScenarios(manage.token, manage.logsProjectId) : []),
  ];
}

/**
 * The inbox's reads of a roadmap project of `size` items through the management API (issue 30:
 * within 20 % at 100,000 of 100): sorted by value (the stored per-idea value), a plain search
 * (the full-text index) and a typo in it (corrected from the index's vocabulary).
 */
function inboxScenarios(token: string, size: number): Scenario[] {
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
 * A Sentry SDK's error report: an envelope with one event, sent as a browser SDK sends it
 * (text/plain, the key in the query). `new`: a new error each time (a new group per event, as
 * errors-new); `repeat`: the same error again and again, as an app in a crash loop sends it (the
 * traffic an ingest endpoint has to survive). Issue 17: 15 % of the ceiling.
 */
function envelopeScenario(key: string, ingestNumber: number, runId: string, kind: 'new' | 'repeat'): Scenario {
  const path = `/api/${ingestNumber}/envelope/?sentry_key=${key}&sentry_version=7`;
  const envelopeOf = (value: string) => {
    const event = JSON.stringify({
      event_id: 'e4b5a1a0c0d94f6f9b6c1d2e3f405162',
      timestamp: 1_790_000_000,
      platform: 'javascript',
      level: 'error',
      release: 'web@1.4.2',
      environment: 'production',
      exception: {
        values: [
          {
            type: 'TypeError',
            value,
            stacktrace: {
              frames: [
                { function: 'submit', abs_path: 'https://app.example.com/checkout.js', lineno: 42, colno: 3 },
                { function: 'total', abs_path: 'https://app.example.com/checkout.js', lineno: 10, colno: 5 },
              ],
            },
          },
        ],
      },
      request: { url: 'https://app.example.com/checkout', headers: { 'User-Agent': 'Mozilla/5.0 Firefox/140.0' } },
    });
    return `{"event_id":"e4b5a1a0c0d94f6f9b6c1d2e3f405162"}\n{"type":"event"}\n${event}\n`;
  };
  const headers = { 'Content-Type': 'text/plain;charset=UTF-8' };
  const repeated = envelopeOf(`Bench envelope ${runId} repeated`);
  return {
    id: kind === 'new' ? 'envelope' : 'envelope-repeat',
    label: `POST /api/<n>/envelope/ (Sentry event, ${kind === 'new' ? 'new' : 'repeated'})`,
    request:
      kind === 'new'
        ? {
            method: 'POST',
            path,
            headers,
            uniqueBody: { parts: envelopeOf(`Bench envelope ${runId} #XXX`).split('XXX') },
          }
        : { method: 'POST', path, headers, body: repeated },
    target: { ratio: 0.15 },
    check: async (origin) => {
      const response = await fetch(`${origin}${path}`, {
        method: 'POST',
        headers,
        body: kind === 'new' ? envelopeOf(`Bench envelope ${runId} check`) : repeated,
      });
      const body = (await expectStatus(response, 200, 'POST envelope')) as { id?: string };
      if (body.id !== 'e4b5a1a0c0d94f6f9b6c1d2e3f405162') fail(`POST envelope answered id ${String(body.id)}`);
    },
  };
}

/**
 * A Sentry SDK's release health: an envelope with one `session` item that starts a new session
 * (a new `sid` and user each request, as page loads of a browser SDK send them), counted into the
 * session state, the hour's counts and the hour's users in one transaction. Issue 33: 20 % of the
 * ceiling on SQLite.
 */
function sessionScenario(key: string, ingestNumber: number, runId: string): Scenario {
  const path = `/api/${ingestNumber}/envelope/?sentry_key=${key}&sentry_version=7`;
  const started = new Date().toISOString();
  const sessionOf = (id: string) =>
    `{}\n{"type":"session"}\n${JSON.stringify({
      sid: `bench-${runId}-${id}`,
      did: `user-${id}`,
      init: true,
      started,
      timestamp: started,
      status: 'ok',
      errors: 0,
      attrs: { release: 'web@1.4.2', environment: 'production' },
    })}\n`;
  const headers = { 'Content-Type': 'text/plain;charset=UTF-8' };
  return {
    id: 'sessions',
    label: 'POST /api/<n>/envelope/ (Sentry session, new)',
    request: { method: 'POST', path, headers, uniqueBody: { parts: sessionOf('XXX').split('XXX') } },
    target: { ratio: 0.2 },
    check: async (origin) => {
      const response = await fetch(`${origin}${path}`, { method: 'POST', headers, body: sessionOf('check') });
      await expectStatus(response, 200, 'POST envelope (session)');
    },
  };
}

/**
 * GET /features of a project with a plan quota: the same content as `features`, so the two rows
 * differ only by the metering (issue 16: a metered read within 10 % of an unmetered one).
 */
function meteredFeaturesScenario(key: string): Scenario {
  return {
    id: 'features-metered',
    label: `GET /features (50 items), metered project (quota ${BENCH_METERED_QUOTA.toLocaleString('en-US')}/month)`,
    request: { path: `${API}/features`, headers: { 'X-API-Key': key } },
    // Issue 16: a metered project's reads within 10 % of an unmetered one's.
    target: { of: 'features', share: 0.9 },
    check: async (origin) => {
      const response = await fetch(`${origin}${API}/features`, { headers: { 'x-api-key': key } });
      const body = (await expectStatus(response, 200, 'GET /features (metered)')) as { features: unknown[] };
      if (body.features.length !== 50) fail(`GET /features (metered) returned ${body.features.length} items`);
    },
  };
}

/** GET /roadmap (the default: every public column, 100 items) of a project holding `size` public features. */
function roadmapScenario(size: number, key: string): Scenario {
  const path = `${API}/roadmap`;
  return {
    id: roadmapScenarioId(size),
    label: `GET /roadmap (${size.toLocaleString('en-US')} public features)`,
    request: { path, headers: { 'X-API-Key': key } },
    // Issue 16: the roadmap of 100,000 within 20 % of its speed with 100.
    ...(size !== BENCH_ROADMAP_SIZES[0]
      ? { target: { of: roadmapScenarioId(BENCH_ROADMAP_SIZES[0]), share: 0.8 } }
      : {}),
    check: async (origin) => {
      const body = (await expectStatus(
        await fetch(`${origin}${path}`, { headers: { 'x-api-key': key } }),
        200,
        `GET /roadmap (${size})`,
      )) as { total: number; columns: { items: unknown[] }[] };
      if (body.total !== 100) fail(`GET /roadmap (${size}) returned ${body.total} items, expected 100`);
    },
  };
}

/**
 * The log explorer's reads over 100,000 log groups (management API, a personal access token):
 * the default page, a level, a text search, the second page through the cursor, a week's
 * histogram. None of these is memoised: each request runs its queries.
 */
function logExplorerScenarios(token: string, logsProjectId: string): Scenario[] {
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
        if (histogram.bucket !== 'hour' || total < 3_000) fail(`logs histogram: ${histogram.bucket}, ${total} groups`);
      },
    },
  ];
}

const BOARD = `/b/${BENCH_BOARD_PROJECT_ID}`;

/**
 * The public board's pages, server-rendered HTML over 1,000 ideas. A scenario's check fills in
 * what only the running server knows (the page's entity tag, an idea's id) before wrk runs.
 */
function boardScenarios(): Scenario[] {
  const notModified: WrkRequest = { path: `${BOARD}/`, headers: {} };
  const idea: WrkRequest = { path: `${BOARD}/ideas/` };
  const page = async (origin: string, path: string, what: string) => {
    const response = await fetch(`${origin}${path}`);
    const html = await response.text();
    if (response.status !== 200 || !html.startsWith('<!doctype html>')) fail(`${what}: ${response.status}`);
    return { response, html };
  };
  return [
    {
      id: 'board-ideas',
      label: `Board: ideas page (top 20 of ${BENCH_BOARD_IDEAS})`,
      request: { path: `${BOARD}/` },
      target: { ratio: 0.15 },
      check: async (origin) => {
        const { html } = await page(origin, `${BOARD}/`, 'board ideas page');
        if (!html.includes(`${BENCH_BOARD_IDEAS} ideas`)) fail('board ideas page does not count 1000 ideas');
      },
    },
    {
      id: 'board-ideas-304',
      label: 'Board: ideas page, unchanged → 304',
      request: notModified,
      target: { ratio: 0.15 },
      check: async (origin) => {
        const { response } = await page(origin, `${BOARD}/`, 'board ideas page');
        const etag = response.headers.get('etag');
        if (!etag) fail('board ideas page has no ETag');
        notModified.headers = { 'If-None-Match': etag };
        const again = await fetch(`${origin}${BOARD}/`, { headers: { 'if-none-match': etag } });
        if (again.status !== 304) fail(`board ideas page with If-None-Match: ${again.status}, expected 304`);
      },
    },
    {
      id: 'board-search',
      label: 'Board: full-text search (ideas page, q=calendar)',
      request: { path: `${BOARD}/?q=calendar` },
      check: async (origin) => {
        const { html } = await page(origin, `${BOARD}/?q=calendar`, 'board search');
        if (!html.includes('calendar sync')) fail('board search found no "calendar sync" idea');
      },
    },
    {
      id: 'board-idea',
      label: 'Board: an idea page',
      request: idea,
      check: async (origin) => {
        const { html } = await page(origin, `${BOARD}/`, 'board ideas page');
        const id = /\/ideas\/(feat_[a-z0-9]+)/.exec(html)?.[1];
        if (!id) fail('no idea link on the board');
        idea.path = `${BOARD}/ideas/${id}`;
        await page(origin, idea.path, 'board idea page');
      },
    },
  ];
}

/** The OFREP bulk evaluation a web provider polls with, its context and the path. */
export const OFREP_BULK_PATH = '/ofrep/v1/evaluate/flags';
export const OFREP_BULK_BODY = JSON.stringify({ context: { targetingKey: 'user-42', email: 'ana@example.com' } });

/**
 * What some scenarios need from the running server before they start: the hash of the `de`
 * translations (translations-304 sends it back) and the ETag an OFREP web provider holds after its
 * first bulk evaluation (ofrep-bulk-304).
 */
export async function serverValuesOf(origin: string, key: string): Promise<{ hash: string; ofrepEtag?: string }> {
  const translations = await fetch(`${origin}${API}/translations?locale=de`, { headers: { 'x-api-key': key } });
  const { hash } = (await expectStatus(translations, 200, 'GET /translations')) as { hash: string };
  const ofrep = await fetch(`${origin}${OFREP_BULK_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: OFREP_BULK_BODY,
  });
  await expectStatus(ofrep, 200, 'OFREP bulk evaluation');
  const ofrepEtag = ofrep.headers.get('etag') ?? undefined;
  return ofrepEtag ? { hash, ofrepEtag } : { hash };
}

/** An OpenFeature web provider's poll that changes nothing: POST with the context and If-None-Match → 304. */
function ofrepBulk304Scenario(key: string, etag: string): Scenario {
  const headers = { 'Content-Type': 'application/json', Authorization: `Bearer ${key}`, 'If-None-Match': etag };
  return {
    id: 'ofrep-bulk-304',
    label: 'POST /ofrep/v1/evaluate/flags → 304',
    request: { method: 'POST', path: OFREP_BULK_PATH, headers, body: OFREP_BULK_BODY },
    target: { ratio: 0.7 },
    check: async (origin) => {
      await expectStatus(
        await fetch(`${origin}${OFREP_BULK_PATH}`, { method: 'POST', headers, body: OFREP_BULK_BODY }),
        304,
        'OFREP bulk with If-None-Match',
      );
    },
  };
}
