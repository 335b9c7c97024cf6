/**
 * The typed-array map of log group keys to rowids (resources/logs/key-map.ts) against a Map, over
 * random operations: keys that crowd a few slots (so probe runs wrap around the table's end and
 * deletions shift entries back), and keys spread as real ones are (53-bit hashes, negative too).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { KeyMap } from '../../../src/resources/logs/key-map.ts';

/** A small deterministic generator, so a failure can be run again. */
function generator(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

function check(keyOf: (random: () => number) => number, operations: number, seed: number): void {
  const random = generator(seed);
  const map = new KeyMap();
  const model = new Map<number, number>();
  for (let i = 0; i < operations; i++) {
    const key = keyOf(random);
    const roll = random();
    if (roll < 0.55) {
      map.set(key, i + 1);
      model.set(key, i + 1);
    } else if (roll < 0.85) {
      map.delete(key);
      model.delete(key);
    } else assert.equal(map.get(key), model.get(key), `get ${key} after ${i} operations`);
    if (i % 997 === 0) {
      assert.equal(map.size, model.size);
      for (const [known, rowid] of model) assert.equal(map.get(known), rowid);
    }
  }
  assert.equal(map.size, model.size);
  for (const [known, rowid] of model) assert.equal(map.get(known), rowid);
  assert.deepEqual(
    [...map.sortedKeys()],
    [...model.keys()].sort((a, b) => a - b),
  );
}

describe('KeyMap: log group keys to rowids', () => {
  it('agrees with a Map when keys crowd a few slots, around the end of the table', () => {
    // Multiples of 1024 plus a little share a home among the first slots; 1023 wraps.
    check((random) => Math.floor(random() * 40) * 1024 + (random() < 0.3 ? 1023 : Math.floor(random() * 3)), 20_000, 7);
  });

  it('agrees with a Map over keys spread as group keys are, while it grows and empties', () => {
    check((random) => Math.floor((random() - 0.5) * 2 ** 53) - (Math.floor(random() * 3000) % 3000), 60_000, 11);
    check((random) => Math.floor(random() * 5000), 60_000, 13);
  });

  it('empties on clear', () => {
    const map = new KeyMap();
    for (let key = 0; key < 3000; key++) map.set(key * 4096, key + 1);
    map.clear();
    assert.equal(map.size, 0);
    assert.equal(map.get(4096), undefined);
    map.set(4096, 9);
    assert.equal(map.get(4096), 9);
  });

  it('shrinks to what it holds after most keys are gone, keeping each', () => {
    const map = new KeyMap();
    const keyOf = (n: number) => n * 7919 - 2 ** 40;
    for (let n = 0; n < 100_000; n++) map.set(keyOf(n), n + 1);
    const grown = map.bytes;
    for (let n = 0; n < 100_000; n++) if (n % 100 !== 0) map.delete(keyOf(n));
    map.compact();
    assert.equal(map.size, 1000);
    assert.ok(map.bytes * 64 <= grown, `${map.bytes} bytes after, ${grown} before`);
    for (let n = 0; n < 100_000; n++) assert.equal(map.get(keyOf(n)), n % 100 === 0 ? n + 1 : undefined);
    map.set(keyOf(1), 5);
    assert.equal(map.get(keyOf(1)), 5);
  });
});
