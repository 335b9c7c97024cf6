/**
 * The statements of a leased outbox table, which the follower e-mail outbox
 * (`notification_outbox`) and the error-alert outbox (`error_alert_outbox`) share: rows are
 * `pending` until due, claimed as `sending` with a lease, then `sent`, `failed` or `skipped`.
 * Each owning store calls these with its own table (a statement builder: the table is the
 * caller's), so the claim and lease rules are written once.
 */
import type { Database, Queryable } from './database.ts';
import { nowIso } from '../kernel/ids.ts';

export type OutboxTable = 'notification_outbox' | 'error_alert_outbox';

const DUE = `((state = 'pending' AND next_attempt_at <= ?) OR (state = 'sending' AND lease_until <= ?))`;

/** Whether anything is due (a read only: polling an idle outbox writes nothing). */
export async function outboxAnythingDue(db: Queryable, table: OutboxTable, now: string): Promise<boolean> {
  return (await db.all(`SELECT id FROM ${table} WHERE ${DUE} LIMIT 1`, [now, now])).length > 0;
}

/**
 * Claims up to `limit` due rows until `leaseUntil`, in one statement: pending ones whose time has
 * come, and ones left `sending` by a worker whose lease ran out (it crashed, or hangs). Each claim
 * counts as an attempt. On PostgreSQL the inner SELECT takes row locks with FOR UPDATE SKIP
 * LOCKED, so concurrent workers of several processes claim disjoint rows (and a row claimed by
 * another meanwhile fails the repeated condition); SQLite's single writer runs it alone.
 */
export async function outboxClaimDue<Row>(
  db: Database,
  table: OutboxTable,
  input: { now: string; leaseUntil: string; limit: number },
  returning: string,
): Promise<Row[]> {
  const pick = `SELECT id FROM ${table} WHERE ${DUE} ORDER BY next_attempt_at, id LIMIT ?`;
  // PostgreSQL: ARRAY(…) runs the locking SELECT once, as an init plan (an IN subquery may be
  // planned as a join that runs it again, and then claims more or other rows than it locked).
  const which = db.dialect === 'postgres' ? `id = ANY(ARRAY(${pick} FOR UPDATE SKIP LOCKED))` : `id IN (${pick})`;
  return db.all<Row>(
    `UPDATE ${table} SET state = 'sending', lease_until = ?, attempts = attempts + 1
      WHERE ${which} AND ${DUE}
      RETURNING ${returning}`,
    [input.leaseUntil, input.now, input.now, input.limit, input.now, input.now],
  );
}

/**
 * Marks a row sent, by id alone: the mail server accepted it, so even a worker whose lease ran out
 * records that (no one should send it again).
 */
export async function outboxMarkSent(db: Queryable, table: OutboxTable, id: string): Promise<void> {
  await db.run(`UPDATE ${table} SET state = 'sent', sent_at = ?, lease_until = NULL, last_error = NULL WHERE id = ?`, [
    nowIso(),
    id,
  ]);
}

/**
 * A failed attempt: back to `pending` until `retryAt`, or `failed` for good when `retryAt` is
 * null. Only while this worker still holds the lease it claimed with.
 */
export async function outboxMarkFailed(
  db: Queryable,
  table: OutboxTable,
  id: string,
  lease: string,
  error: string,
  retryAt: string | null,
): Promise<void> {
  await db.run(
    `UPDATE ${table} SET state = ?, next_attempt_at = COALESCE(?, next_attempt_at), lease_until = NULL,
       last_error = ? WHERE id = ? AND state = 'sending' AND lease_until = ?`,
    [retryAt === null ? 'failed' : 'pending', retryAt, error.slice(0, 1000), id, lease],
  );
}

/** A row not to send after all. */
export async function outboxMarkSkipped(db: Queryable, table: OutboxTable, id: string, reason: string): Promise<void> {
  await db.run(
    `UPDATE ${table} SET state = 'skipped', lease_until = NULL, last_error = ? WHERE id = ? AND state = 'sending'`,
    [reason, id],
  );
}

/** Hands a claimed row back unsent: pending again at once, its attempt not counted. */
export async function outboxRelease(db: Queryable, table: OutboxTable, id: string, lease: string): Promise<void> {
  await db.run(
    `UPDATE ${table} SET state = 'pending', lease_until = NULL, attempts = attempts - 1
      WHERE id = ? AND state = 'sending' AND lease_until = ?`,
    [id, lease],
  );
}
