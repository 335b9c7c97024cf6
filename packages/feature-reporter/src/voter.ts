import type { StorageLike } from '@signpost/sdk-core';

const STORAGE_KEY = 'signpost.voterId';

/**
 * A stable, anonymous voter id for `vote`/`unvote` when your app has no user id: random, kept in
 * `localStorage` (or the storage you pass) so the same browser keeps its votes. Without storage
 * (Node.js, private mode) a new id is made on each call: pass your own user id there.
 */
export function anonymousVoterId(storage?: StorageLike): string {
  const store = storage ?? defaultStorage();
  try {
    const existing = store?.getItem(STORAGE_KEY);
    if (existing) return existing;
  } catch {
    // Storage blocked: fall through to a fresh id.
  }
  const id = `anon_${randomId()}`;
  try {
    store?.setItem(STORAGE_KEY, id);
  } catch {
    // Not persisted; still usable for this page.
  }
  return id;
}

function defaultStorage(): StorageLike | undefined {
  try {
    return (globalThis as { localStorage?: StorageLike }).localStorage;
  } catch {
    return undefined;
  }
}

function randomId(): string {
  const c = (globalThis as { crypto?: Crypto }).crypto;
  if (c?.randomUUID) return c.randomUUID().replace(/-/g, '');
  return Array.from({ length: 4 }, () => Math.random().toString(36).slice(2, 10)).join('');
}
