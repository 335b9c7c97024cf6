import type { Database } from '../db/database.ts';
import { newId } from '../kernel/ids.ts';

export interface LimitState {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window frees a slot (or resets). */
  resetSeconds: number;
}

/** IETF RateLimit header fields, plus Retry-After when the request was refused. */
export function rateLimitHeaders(state: LimitState): Record<string, string> {
  const headers: Record<string, string> = {
    'RateLimit-Limit': String(state.limit),
    'RateLimit-Remaining': String(state.remaining),
    'RateLimit-Reset': String(state.resetSeconds),
  };
  if (!state.allowed) headers['Retry-After'] = String(Math.max(1, state.resetSeconds));
  return headers;
}

/**
 * A sliding-window log kept in the database, so the count is exact across every server
 * process sharing it. The head row's upsert takes a row lock (PostgreSQL) or the write lock
 * (SQLite), so concurrent requests for one bucket are counted one after another.
 */
export async function hitSlidingWindow(
  db: Database,
  bucket: string,
  limit: number,
  windowMs: number,
  now = Date.now(),
): Promise<LimitState> {
  const cutoff = new Date(now - windowMs).toISOString();
  const at = new Date(now).toISOString();
  return db.transaction(async (tx) => {
    await tx.run(
      `INSERT INTO rate_limit_heads (bucket, touched_at) VALUES (?, ?)
       ON CONFLICT (bucket) DO UPDATE SET touched_at = excluded.touched_at`,
      [bucket, at],
    );
    await tx.run('DELETE FROM rate_limit_hits WHERE bucket = ? AND at <= ?', [bucket, cutoff]);
    const window = await tx.get<{ used: number; oldest: string | null }>(
      'SELECT COUNT(*) AS used, MIN(at) AS oldest FROM rate_limit_hits WHERE bucket = ?',
      [bucket],
    );
    const used = Number(window?.used ?? 0);
    const allowed = used < limit;
    if (allowed) {
      await tx.run('INSERT INTO rate_limit_hits (id, bucket, at) VALUES (?, ?, ?)', [newId('hit'), bucket, at]);
    }
    const oldest = window?.oldest ? Date.parse(window.oldest) : now;
    // `now` was read before this transaction waited for its lock: a request of another process
    // that went first may have counted a later time, so the oldest hit can lie after `now`. The
    // wait is never more than the window itself.
    const reset = Math.min(Math.ceil(windowMs / 1000), Math.ceil((oldest + windowMs - now) / 1000));
    return {
      allowed,
      limit,
      remaining: Math.max(0, limit - used - (allowed ? 1 : 0)),
      resetSeconds: Math.max(0, reset),
    };
  });
}
