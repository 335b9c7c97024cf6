import { releasedAtRest } from './at-rest.ts';

/**
 * A small in-process cache whose entries are tied to a version number read from the database
 * (bumped by every write, in any process) and optionally to an expiry time. Least recently
 * set entries are dropped past `maxEntries`. Emptied while the server rests (at-rest.ts).
 */
export class VersionedCache<T> {
  private readonly entries = new Map<string, { version: number; value: T; staleAt: number | undefined }>();
  private readonly maxEntries: number;

  constructor(maxEntries: number) {
    this.maxEntries = maxEntries;
    releasedAtRest(this);
  }

  release(): void {
    this.entries.clear();
  }

  get(key: string, version: number, now: number): T | undefined {
    const entry = this.entries.get(key);
    if (!entry || entry.version !== version || (entry.staleAt !== undefined && now >= entry.staleAt)) return undefined;
    return entry.value;
  }

  set(key: string, version: number, value: T, staleAt?: number): void {
    this.entries.delete(key);
    this.entries.set(key, { version, value, staleAt });
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
  }
}
