/**
 * A Bloom filter over log group keys (group-key.ts): "certainly absent" or "maybe present".
 *
 * Written here rather than taken from a library because the keys are already uniform hashes (53
 * bits of a SHA-256): the filter needs no hash function of its own, only bit positions cut from
 * the key, where the libraries hash strings or buffers again on every call.
 *
 * Blocked: a key's bits all lie in one 64-byte block (a cache line), picked by the key's high
 * bits, so a lookup in a filter of many megabytes misses the CPU cache once, not once per bit.
 * With 12 bits per key and 7 bits each, well under 1 % of absent keys answer "maybe".
 */

const BITS_PER_KEY = 12;
const POSITIONS = 7;
const BLOCK_BITS = 512;
const BLOCK_WORDS = BLOCK_BITS / 32;
const TWO_POW_26 = 2 ** 26;
/** Whatever the count, at least 2^20 bits (128 KiB). */
const MIN_BITS = 2 ** 20;

export class KeyFilter {
  /** Keys the filter holds at its intended false-positive rate; more make it answer "maybe" more. */
  readonly capacity: number;
  private readonly words: Uint32Array;
  private readonly blockMask: number;

  constructor(capacity: number) {
    let bits = MIN_BITS;
    while (bits < capacity * BITS_PER_KEY) bits *= 2;
    this.capacity = Math.floor(bits / BITS_PER_KEY);
    this.words = new Uint32Array(bits / 32);
    this.blockMask = bits / BLOCK_BITS - 1;
  }

  add(key: number): void {
    this.visit(key, true);
  }

  mayHold(key: number): boolean {
    return this.visit(key, false);
  }

  /** Sets the key's bits, or tells whether all of them are set. */
  private visit(key: number, set: boolean): boolean {
    const unsigned = key < 0 ? key + 2 ** 53 : key;
    const block = (Math.floor(unsigned / TWO_POW_26) & this.blockMask) * BLOCK_WORDS;
    // In the block, double hashing from the low 26 bits: 9 bits start, the next 9 (odd) step.
    const low = unsigned % TWO_POW_26;
    const step = ((low >>> 9) & (BLOCK_BITS - 1)) | 1;
    for (let i = 0, bit = low & (BLOCK_BITS - 1); i < POSITIONS; i++, bit = (bit + step) & (BLOCK_BITS - 1)) {
      const word = block + (bit >>> 5);
      const mask = 1 << (bit & 31);
      if (set) this.words[word]! |= mask;
      else if ((this.words[word]! & mask) === 0) return false;
    }
    return true;
  }
}

/**
 * A filter that grows as keys are added (a scalable Bloom filter): when the newest filter is
 * full, the next one, twice its size, takes the keys that follow, and a key may be in any of
 * them. So it never has to be filled again from the keys: each filter keeps its rate, and a few
 * of them (one per doubling) add theirs up.
 */
export class GrowingKeyFilter {
  private readonly filters: KeyFilter[];
  /** Keys in the newest filter. */
  private held = 0;

  constructor(capacity: number) {
    this.filters = [new KeyFilter(capacity)];
  }

  add(key: number): void {
    let newest = this.filters[this.filters.length - 1]!;
    if (this.held >= newest.capacity) {
      newest = new KeyFilter(newest.capacity * 2);
      this.filters.push(newest);
      this.held = 0;
    }
    newest.add(key);
    this.held++;
  }

  mayHold(key: number): boolean {
    for (const filter of this.filters) if (filter.mayHold(key)) return true;
    return false;
  }
}
