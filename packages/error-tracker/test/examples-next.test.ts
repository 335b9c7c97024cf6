import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { loadExample } from '@signpost/test-support/bundle';
import { sdkTestEnv } from '@signpost/test-support/env';

// The Next.js examples are type-checked by `npm test` (tsc -p examples); here they are compiled
// with esbuild (dependencies left as imports) and run: server parts against a real server, client
// components rendered with react-dom/server.
const pkgDir = fileURLToPath(new URL('..', import.meta.url));

// Registered first, so the tracker the example started is closed before the server.
after(async () => {
  const { getCurrentTracker } = await import('@signpost/error-tracker');
  await getCurrentTracker()?.close();
});
const { server } = await sdkTestEnv();

test('nextjs/instrumentation.ts: register starts the Node tracker, onRequestError reports', async () => {
  const p = await server.createProject();
  Object.assign(process.env, {
    NEXT_RUNTIME: 'nodejs',
    SIGNPOST_API_KEY: p.liveKey,
    SIGNPOST_URL: server.baseUrl,
    NEXT_PUBLIC_APP_VERSION: '5.0.0',
  });
  const mod = await loadExample(pkgDir, 'nextjs/instrumentation.ts');
  await (mod['register'] as () => Promise<void>)();
  const onRequestError = mod['onRequestError'] as (e: unknown, r: object, c: object) => Promise<void>;
  await onRequestError(
    new Error('Server component failed to load orders'),
    { path: '/orders', method: 'GET' },
    { routerKind: 'App Router', routePath: '/orders', routeType: 'render' },
  );
  const [row] = await server.db.all<{ title: string; severity: string; metadata: string; app: string }>(
    'SELECT * FROM error_reports WHERE project_id = ?',
    [p.projectId],
  );
  assert.equal(row!.title, 'Error: Server component failed to load orders');
  assert.equal(row!.severity, 'high');
  assert.deepEqual(JSON.parse(row!.metadata), {
    path: '/orders',
    method: 'GET',
    route: '/orders',
    routeType: 'render',
  });
  assert.equal(JSON.parse(row!.app).version, '5.0.0');
});

test('nextjs/app client components render on the server', async () => {
  const { SignpostErrorTracking } = (await loadExample(pkgDir, 'nextjs/app/signpost.tsx')) as {
    SignpostErrorTracking: (p: { children: unknown }) => unknown;
  };
  assert.equal(
    renderToString(createElement(SignpostErrorTracking as never, null, createElement('p', null, 'page'))),
    '<p>page</p>',
  );
  const GlobalError = (await loadExample(pkgDir, 'nextjs/app/global-error.tsx'))['default'] as (p: object) => unknown;
  assert.match(
    renderToString(createElement(GlobalError as never, { error: new Error('x'), reset: () => {} })),
    /Something went wrong/,
  );
});
