import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { checkBrowserEntryPoints } from '@signpost/test-support/entry';

test('every entry point loads in Node.js', async () => {
  await import('@signpost/i18n');
  await import('@signpost/i18n/i18next');
  await import('@signpost/i18n/react');
});

test('entry points bundle for the browser with no Node.js built-ins; exports are named and typed', async () => {
  await checkBrowserEntryPoints(fileURLToPath(new URL('..', import.meta.url)));
});
