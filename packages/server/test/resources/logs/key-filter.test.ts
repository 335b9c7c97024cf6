/**
 * The Bloom filter of swept log group keys (resources/logs/key-filter.ts): a key that was added
 * is never refused (the store would write a second row of its group), and few absent keys pass.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { hash } from 'node:crypto';
import { GrowingKeyFilter, KeyFilter } from '../../../src/resources/logs/key-filter.ts';
import { groupKey } from '../../../src/resources/logs/group-key.ts';

/** Real group keys: the store's hash of a project, an environment and a fingerprint. */
const keyOf = (n: number) => groupKey('proj_filter', 'live', hash('sha1', `line ${n}`));

describe('log key filters', () => {
  it('holds every key added, and lets through under 1 % of absent ones at its capacity', () => {
    const filter = new KeyFilter(100_000);
    for (let n = 0; n < filter.capacity; n++) filter.add(keyOf(n));
    for (let n = 0; n < filter.capacity; n++) assert.ok(filter.mayHold(keyOf(n)), `key ${n}`);
    let passed = 0;
    for (let n = 0; n < 100_000; n++) if (filter.mayHold(keyOf(10_000_000 + n))) passed++;
    assert.ok(passed < 1_000, `${passed} of 100,000 absent keys passed`);
    assert.ok(passed > 0, 'a Bloom filter at capacity lets some through');
  });

  it('grows past its first capacity without losing a key, its rate still low', () => {
    const filter = new GrowingKeyFilter(10_000);
    const keys = 600_000; // several doublings past the first filter
    for (let n = 0; n < keys; n++) filter.add(keyOf(n));
    for (let n = 0; n < keys; n++) assert.ok(filter.mayHold(keyOf(n)), `key ${n}`);
    let passed = 0;
    for (let n = 0; n < 100_000; n++) if (filter.mayHold(keyOf(10_000_000 + n))) passed++;
    assert.ok(passed < 3_000, `${passed} of 100,000 absent keys passed`);
  });
});
