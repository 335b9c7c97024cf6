import type { Database } from '../db/database.ts';
import { releasedAtRest } from './at-rest.ts';

/** What a cache may hold in all, by the size of its values: past it, it starts over. */
const DEFAULT_MAX_BYTES = 16 * 1024 * 1024;

/**
 * Roughly what a value holds: a string's or buffer's length, a rendered page's bytes (its
 * `byteLength`); other values (small records) count a flat 256 bytes, so only the entry bound
 * applies to them.
 */
export function approximateSize(value: unknown): number {
  if (typeof value === 'string') return value.length;
  if (value instanceof Uint8Array) return value.byteLength;
  if (value !== null && typeof value === 'object' && typeof (value as { byteLength?: unknown }).byteLength === 'number')
    return (value as { byteLength: number }).byteLength;
  return 256;
}

/**
 * Memoises reads until the database reports a commit (see `Database.changeMarker`). On a
 * database without a change marker every call loads afresh, so callers never see stale data.
 * The marker is read before loading: a commit racing the load invalidates the entry at once.
 *
 * Bounded by entries and by bytes (`approximateSize` of the values: the roadmap's and the
 * board's pages at 100,000 ideas are large strings), and emptied while the server rests
 * (at-rest.ts). A commit makes every entry stale at once, so starting over when full costs
 * nothing a smarter eviction would save.
 */
export class ChangeCache<V> {
  private readonly entries = new Map<string, { marker: number; value: V }>();
  private readonly db: Database;
  private readonly maxEntries: number;
  private readonly maxBytes: number;
  private bytes = 0;

  constructor(db: Database, maxEntries = 10_000, maxBytes = DEFAULT_MAX_BYTES) {
    this.db = db;
    this.maxEntries = maxEntries;
    this.maxBytes = maxBytes;
    releasedAtRest(this);
  }

  get enabled(): boolean {
    return this.db.changeMarker !== undefined;
  }

  /** The entry if it is still valid, without loading: `found` false means "ask `get`". */
  peek(key: string): { found: true; value: V } | { found: false } {
    if (!this.db.changeMarker) return { found: false };
    const entry = this.entries.get(key);
    if (entry && entry.marker === this.db.changeMarker()) return { found: true, value: entry.value };
    return { found: false };
  }

  async get(key: string, load: () => Promise<V>): Promise<V> {
    if (!this.db.changeMarker) return load();
    const marker = this.db.changeMarker();
    const entry = this.entries.get(key);
    if (entry && entry.marker === marker) return entry.value;
    const value = await load();
    const size = key.length + approximateSize(value);
    if (size > this.maxBytes) return value;
    if (this.entries.size >= this.maxEntries || this.bytes + size > this.maxBytes) this.release();
    // A replaced entry's bytes stay counted until the next start over: an over-count, never under.
    this.entries.set(key, { marker, value });
    this.bytes += size;
    return value;
  }

  release(): void {
    this.entries.clear();
    this.bytes = 0;
  }
}
