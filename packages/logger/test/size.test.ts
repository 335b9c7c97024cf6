import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { checkReadmeSizes } from '@signpost/test-support/size';

test('the sizes in README.md match the measured ones', () => {
  const checked = checkReadmeSizes(fileURLToPath(new URL('..', import.meta.url)));
  assert.ok(checked.length > 0);
});
