/**
 * Log group keys (group-key.ts) to rowids, in two typed arrays: open addressing with linear
 * probing, at most half full.
 *
 * Why not a Map: the keys are 53-bit integers, which V8 keeps as heap numbers, so a Map of a few
 * hundred thousand of them held about 150 bytes a key and hashed a boxed double on every lookup.
 * Here a key takes 32 bytes at worst (two 8-byte slots, half of them empty), and a lookup is an
 * index into an array: the keys are uniform hashes already, so their low bits pick the slot.
 */

const MIN_SLOTS = 1024;

export class KeyMap {
  private keys = new Float64Array(MIN_SLOTS).fill(Number.NaN);
  private rowids = new Float64Array(MIN_SLOTS);
  private mask = MIN_SLOTS - 1;
  private count = 0;

  get size(): number {
    return this.count;
  }

  get(key: number): number | undefined {
    const slot = this.find(key);
    return slot < 0 ? undefined : this.rowids[slot];
  }

  set(key: number, rowid: number): void {
    if ((this.count + 1) * 2 > this.keys.length) this.resize(this.keys.length * 2);
    let slot = this.home(key);
    for (;;) {
      const held = this.keys[slot]!;
      if (Number.isNaN(held)) {
        this.keys[slot] = key;
        this.count++;
        break;
      }
      if (held === key) break;
      slot = (slot + 1) & this.mask;
    }
    this.rowids[slot] = rowid;
  }

  /** Backward-shift deletion: the entries after the hole that may move into it do, so no tombstones. */
  delete(key: number): void {
    let hole = this.find(key);
    if (hole < 0) return;
    for (let slot = (hole + 1) & this.mask; ; slot = (slot + 1) & this.mask) {
      const held = this.keys[slot]!;
      if (Number.isNaN(held)) break;
      // The entry may fill the hole unless its home lies cyclically in (hole, slot].
      const home = this.home(held);
      const stays = hole <= slot ? home > hole && home <= slot : home > hole || home <= slot;
      if (stays) continue;
      this.keys[hole] = held;
      this.rowids[hole] = this.rowids[slot]!;
      hole = slot;
    }
    this.keys[hole] = Number.NaN;
    this.count--;
  }

  clear(): void {
    this.keys = new Float64Array(MIN_SLOTS).fill(Number.NaN);
    this.rowids = new Float64Array(MIN_SLOTS);
    this.mask = MIN_SLOTS - 1;
    this.count = 0;
  }

  /** The table shrunk to the smallest that holds the keys at most half full (after a sweep emptied it). */
  compact(): void {
    let slots = MIN_SLOTS;
    while (this.count * 2 > slots) slots *= 2;
    if (slots < this.keys.length) this.resize(slots);
  }

  /** Bytes held by the table (what compact gives back). */
  get bytes(): number {
    return this.keys.byteLength + this.rowids.byteLength;
  }

  /** The keys, in ascending order. */
  sortedKeys(): Float64Array {
    const out = new Float64Array(this.count);
    let n = 0;
    for (const key of this.keys) if (!Number.isNaN(key)) out[n++] = key;
    return out.sort();
  }

  private home(key: number): number {
    return (key >>> 0) & this.mask;
  }

  private find(key: number): number {
    for (let slot = this.home(key); ; slot = (slot + 1) & this.mask) {
      const held = this.keys[slot]!;
      if (held === key) return slot;
      if (Number.isNaN(held)) return -1;
    }
  }

  private resize(slots: number): void {
    const { keys, rowids } = this;
    this.keys = new Float64Array(slots).fill(Number.NaN);
    this.rowids = new Float64Array(slots);
    this.mask = slots - 1;
    this.count = 0;
    for (let slot = 0; slot < keys.length; slot++) if (!Number.isNaN(keys[slot]!)) this.set(keys[slot]!, rowids[slot]!);
  }
}
