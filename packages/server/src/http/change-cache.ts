import type { Database } from '../db/database.ts';

/**
 * Memoises reads until the database reports a commit (see `Database.changeMarker`). On a
 * database without a change marker every call loads afresh, so callers never see stale data.
 * The marker is read before loading: a commit racing the load invalidates the entry at once.
 */
export class ChangeCache<V> {
  private readonly entries = new Map<string, { marker: number; value: V }>();
  private readonly db: Database;
  private readonly maxEntries: number;

  constructor(db: Database, maxEntries = 10_000) {
    this.db = db;
    this.maxEntries = maxEntries;
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
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(key, { marker, value });
    return value;
  }
}
