import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { loadExample } from '@signpost/test-support/bundle';
import { sdkTestEnv } from '@signpost/test-support/env';

// The React and Next.js examples are type-checked by `npm test` (tsc -p examples); here they are
// compiled with esbuild (dependencies left as imports) and run.
const pkgDir = fileURLToPath(new URL('..', import.meta.url));

const { server } = await sdkTestEnv();

test('examples/react.tsx renders on the server', async () => {
  const mod = await loadExample(pkgDir, 'react.tsx');
  const App = mod['App'] as () => unknown;
  assert.match(renderToString(createElement(App as never)), /<button type="button">Pay<\/button>/);
});

test("useLogger: the provider's logger as a child with defaults; a no-op outside a provider", async () => {
  const { createLogger } = await import('@signpost/logger');
  const { LoggerProvider, useLogger } = await import('@signpost/logger/react');
  const p = await server.createProject();
  const logger = createLogger({ apiKey: p.liveKey, baseUrl: server.baseUrl });
  const Probe = () => {
    useLogger({ category: 'probe' }).info('rendered');
    return createElement('i', null, 'x');
  };
  assert.equal(renderToString(createElement(LoggerProvider, { logger }, createElement(Probe))), '<i>x</i>');
  await logger.flush();
  const [row] = await server.db.all<{ message: string; category: string }>(
    'SELECT message, category FROM log_groups WHERE project_id = ?',
    [p.projectId],
  );
  assert.deepEqual({ ...row }, { message: 'rendered', category: 'probe' });
  const warn = console.warn;
  console.warn = () => {};
  try {
    assert.equal(renderToString(createElement(Probe)), '<i>x</i>');
  } finally {
    console.warn = warn;
  }
});

test('examples/nextjs route handler logs and flushes before answering', async () => {
  const p = await server.createProject();
  process.env['SIGNPOST_API_KEY'] = p.liveKey;
  process.env['SIGNPOST_URL'] = server.baseUrl;
  const route = await loadExample(pkgDir, 'nextjs/app/api/orders/route.ts');
  const POST = route['POST'] as (request: Request) => Promise<Response>;
  const ok = await POST(
    new Request('http://app.test/api/orders', { method: 'POST', body: JSON.stringify({ sku: 'sku_1', quantity: 2 }) }),
  );
  assert.equal(ok.status, 201);
  const bad = await POST(new Request('http://app.test/api/orders', { method: 'POST', body: '{}' }));
  assert.equal(bad.status, 400);
  const stored = await server.db.all<{ level: string; message: string; source: string }>(
    'SELECT level, message, source FROM log_groups WHERE project_id = ? ORDER BY message',
    [p.projectId],
  );
  assert.deepEqual(
    stored.map((r) => [r.level, r.message, r.source]),
    [
      ['info', 'Order placed', 'nextjs'],
      ['warn', 'Order without sku', 'nextjs'],
    ],
  );
});
