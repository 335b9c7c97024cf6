import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { checkBrowserEntryPoints } from '@signpost/test-support/entry';

test('every entry point loads in Node.js; the gate renders nothing without a DOM', async () => {
  const { createSiteManager } = await import('@signpost/site-manager');
  const { mountMaintenanceGate } = await import('@signpost/site-manager/gate');
  const site = createSiteManager({ projectId: 'x', autoStart: false });
  assert.equal(typeof mountMaintenanceGate(site), 'function');
  site.close();
  await import('@signpost/site-manager/openfeature');
  await import('@signpost/site-manager/react');
});

test('entry points bundle for the browser with no Node.js built-ins; exports are named and typed', async () => {
  await checkBrowserEntryPoints(fileURLToPath(new URL('..', import.meta.url)));
});
