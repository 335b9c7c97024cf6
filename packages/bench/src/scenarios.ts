/**
 * What the benchmark sends: one scenario per measured request, each with the figure the server
 * issue asks of it and a check, run by hand before measuring, that the server answers it rightly.
 * This file holds the list and the public API's scenarios; the Sentry ingest's, the board's and
 * the management API's and the hosted MCP's are in scenarios-sentry.ts, scenarios-board.ts,
 * scenarios-management.ts and scenarios-mcp.ts.
 */
import { roadmapScenarioId } from './scenario-ids.ts';
import { API, expectStatus, fail, type Scenario } from './scenario-kit.ts';
import { boardScenarios, boardSizeScenarios } from './scenarios-board.ts';
import { inboxScenarios, logExplorerScenarios, releasePageScenario } from './scenarios-management.ts';
import { mcpScenarios } from './scenarios-mcp.ts';
import { envelopeScenario, sessionScenario } from './scenarios-sentry.ts';
import { BENCH_METERED_QUOTA, BENCH_ROADMAP_SIZES, type BenchData } from './seed.ts';

/** What the management API's and the hosted MCP's scenarios are called with. */
export interface Management {
  token: string;
  logsProjectId?: string | undefined;
  logsMcpKey?: string | undefined;
}

/** The seed's callers of the management API and the MCP server; none when it made no account. */
export function managementOf(data: BenchData): Management | undefined {
  return data.managementToken
    ? { token: data.managementToken, logsProjectId: data.logsProjectId, logsMcpKey: data.logsMcpKey }
    : undefined;
}

/** The scenarios, for a project, its key, a tag unique to this run and the `de` translations' hash. */
export function scenarios(
  key: string,
  projectId: string,
  runId: string,
  translationsHash: string,
  manage?: Management,
  more: {
    meteredKey?: string;
    ingestNumber?: number;
    roadmapKeys?: Map<number, string>;
    ofrepEtag?: string;
    releaseSessions?: readonly number[];
  } = {},
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
    ...[...(more.roadmapKeys ?? new Map<number, string>()).keys()].flatMap(boardSizeScenarios),
    ...(manage
      ? [...(more.roadmapKeys ?? new Map<number, string>()).keys()].flatMap((size) =>
          inboxScenarios(manage.token, size),
        )
      : []),
    ...(manage?.logsProjectId ? logExplorerScenarios(manage.token, manage.logsProjectId) : []),
    ...(manage?.logsProjectId && manage.logsMcpKey ? mcpScenarios(manage.logsMcpKey, manage.logsProjectId) : []),
    ...(manage ? (more.releaseSessions ?? []).map((sessions) => releasePageScenario(manage.token, sessions)) : []),
  ];
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
