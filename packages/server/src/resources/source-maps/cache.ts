/**
 * A least-recently-used cache bounded by bytes (each entry's weight given by the caller): parsed
 * source maps are big, so a count bound would say nothing about memory.
 */
export class ByteLru<V> {
  private readonly entries = new Map<string, { value: V; bytes: number }>();
  private used = 0;
  readonly maxBytes: number;

  constructor(maxBytes: number) {
    this.maxBytes = maxBytes;
  }

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Adds an entry, dropping the least recently used ones; an entry above the bound is not kept. */
  set(key: string, value: V, bytes: number): void {
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.used -= old.bytes;
    }
    if (bytes > this.maxBytes) return;
    this.entries.set(key, { value, bytes });
    this.used += bytes;
    for (const [oldest, entry] of this.entries) {
      if (this.used <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.used -= entry.bytes;
    }
  }

  get bytes(): number {
    return this.used;
  }
  get size(): number {
    return this.entries.size;
  }
}
