/**
 * The store of `follows` (who follows an idea) and `notification_outbox` (follower e-mails queued
 * in the transaction of the change that causes them, sent by outbox-worker.ts): the only code
 * that runs SQL on these two tables.
 */
import type { Database, Queryable } from '../../db/database.ts';
import { newId, nowIso } from '../../kernel/ids.ts';
import {
  outboxAnythingDue,
  outboxClaimDue,
  outboxMarkFailed,
  outboxMarkSent,
  outboxMarkSkipped,
  outboxRelease,
} from '../../db/outbox-statements.ts';

const TABLE = 'notification_outbox';

// Follows

/** Makes the user a follower of the idea; following again changes nothing. */
export async function follow(tx: Queryable, featureId: string, userId: string): Promise<void> {
  await tx.run(
    'INSERT INTO follows (feature_id, user_id, created_at) VALUES (?, ?, ?) ON CONFLICT (feature_id, user_id) DO NOTHING',
    [featureId, userId, nowIso()],
  );
}

/** Ends the follow; true when there was one. */
export async function unfollow(tx: Queryable, featureId: string, userId: string): Promise<boolean> {
  const { changes } = await tx.run('DELETE FROM follows WHERE feature_id = ? AND user_id = ?', [featureId, userId]);
  return changes > 0;
}

export async function isFollowing(db: Queryable, featureId: string, userId: string): Promise<boolean> {
  const rows = await db.all('SELECT 1 AS found FROM follows WHERE feature_id = ? AND user_id = ?', [featureId, userId]);
  return rows.length > 0;
}

/**
 * A merge: the followers of `fromFeatureId` follow `toFeatureId` (once each, keeping the earlier
 * follow); the duplicate's own follows go with it when it is deleted.
 */
export async function moveFollowers(tx: Queryable, fromFeatureId: string, toFeatureId: string): Promise<number> {
  const { changes } = await tx.run(
    `INSERT INTO follows (feature_id, user_id, created_at)
     SELECT ?, user_id, created_at FROM follows WHERE feature_id = ?
     ON CONFLICT (feature_id, user_id) DO NOTHING`,
    [toFeatureId, fromFeatureId],
  );
  return changes;
}

/** The ids of the idea's followers, oldest follow first. */
export async function listFollowers(db: Queryable, featureId: string): Promise<string[]> {
  const rows = await db.all<{ user_id: string }>(
    'SELECT user_id FROM follows WHERE feature_id = ? ORDER BY created_at, user_id',
    [featureId],
  );
  return rows.map((row) => row.user_id);
}

// The outbox

export type NotificationKind = 'status-changed' | 'shipped';

/** What a message says, captured at the change (the e-mail is rendered from it at sending). */
export type NotificationPayload =
  | { kind: 'status-changed'; title: string; from: string; to: string; response?: string | null }
  | { kind: 'shipped'; title: string; summary: string; entryId: string };

export interface OutboxRow {
  id: string;
  project_id: string;
  user_id: string;
  feature_id: string | null;
  kind: NotificationKind;
  event_key: string;
  payload: string;
  message_id: string;
  /** pending, sending, sent, failed, or skipped (the follow or the idea's visibility ended before sending). */
  state: string;
  attempts: number;
  next_attempt_at: string;
  lease_until: string | null;
  last_error: string | null;
  created_at: string;
  sent_at: string | null;
}

/**
 * Queues one message per follower of the idea for one change, in the caller's transaction.
 * `eventKey` names the change: with UNIQUE (event_key, user_id) a follower is never queued twice
 * for it, whatever runs the same change again. Each message gets its Message-ID now, so every
 * attempt sends the same message. Returns how many were queued.
 */
export async function enqueueForFollowers(
  tx: Queryable,
  input: {
    projectId: string;
    featureId: string;
    eventKey: string;
    payload: NotificationPayload;
    messageIdDomain: string;
  },
): Promise<number> {
  const followers = await listFollowers(tx, input.featureId);
  const now = nowIso();
  let queued = 0;
  for (const userId of followers) {
    const id = newId('ntf');
    const { changes } = await tx.run(
      `INSERT INTO notification_outbox (id, project_id, user_id, feature_id, kind, event_key, payload, message_id,
         state, attempts, next_attempt_at, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'pending', 0, ?, ?)
       ON CONFLICT (event_key, user_id) DO NOTHING`,
      [
        id,
        input.projectId,
        userId,
        input.featureId,
        input.payload.kind,
        input.eventKey,
        JSON.stringify(input.payload),
        `<${id}@${input.messageIdDomain}>`,
        now,
        now,
      ],
    );
    queued += changes;
  }
  return queued;
}

/** Whether anything is due (a read only: polling an idle outbox writes nothing). */
export function anythingDue(db: Queryable, now: string): Promise<boolean> {
  return outboxAnythingDue(db, TABLE, now);
}

/** Claims up to `limit` due messages for this worker until `leaseUntil` (db/outbox-statements.ts). */
export function claimDue(
  db: Database,
  input: { now: string; leaseUntil: string; limit: number },
): Promise<OutboxRow[]> {
  return outboxClaimDue<OutboxRow>(db, TABLE, input, '*');
}

/** Marks a message sent, by id alone (the mail server accepted it). */
export function markSent(db: Queryable, id: string): Promise<void> {
  return outboxMarkSent(db, TABLE, id);
}

/** A failed attempt: pending until `retryAt`, or failed for good when it is null; only under this lease. */
export function markFailed(db: Queryable, id: string, lease: string, error: string, retryAt: string | null) {
  return outboxMarkFailed(db, TABLE, id, lease, error, retryAt);
}

/** A message not to send after all (unfollowed, or the idea is no longer public). */
export function markSkipped(db: Queryable, id: string, reason: string): Promise<void> {
  return outboxMarkSkipped(db, TABLE, id, reason);
}

/** Hands a claimed message back unsent (stopping, or too little lease left): its attempt not counted. */
export function release(db: Queryable, id: string, lease: string): Promise<void> {
  return outboxRelease(db, TABLE, id, lease);
}

/** How many people follow the idea (the board shows it). */
export async function countFollowers(db: Queryable, featureId: string): Promise<number> {
  const row = await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM follows WHERE feature_id = ?', [featureId]);
  return Number(row?.n ?? 0);
}

/**
 * Queues a status change for each follower of the idea, held for the undo window: a follower who
 * already has a pending status-change message for the idea gets no second one (that message is
 * rendered at sending from the idea's state then, and skipped when the idea is back where it
 * started). Returns how many were queued.
 */
export async function enqueueStatusChange(
  tx: Queryable,
  input: {
    projectId: string;
    featureId: string;
    eventKey: string;
    payload: NotificationPayload & { kind: 'status-changed' };
    messageIdDomain: string;
    windowSeconds: number;
  },
): Promise<number> {
  const followers = await listFollowers(tx, input.featureId);
  const now = nowIso();
  const due = new Date(Date.now() + input.windowSeconds * 1000).toISOString();
  let queued = 0;
  for (const userId of followers) {
    const pending = await tx.get(
      `SELECT id FROM notification_outbox
        WHERE feature_id = ? AND user_id = ? AND kind = 'status-changed' AND state = 'pending' LIMIT 1`,
      [input.featureId, userId],
    );
    if (pending) continue;
    const id = newId('ntf');
    const { changes } = await tx.run(
      `INSERT INTO notification_outbox (id, project_id, user_id, feature_id, kind, event_key, payload, message_id,
         state, attempts, next_attempt_at, created_at)
       VALUES (?, ?, ?, ?, 'status-changed', ?, ?, ?, 'pending', 0, ?, ?)
       ON CONFLICT (event_key, user_id) DO NOTHING`,
      [
        id,
        input.projectId,
        userId,
        input.featureId,
        input.eventKey,
        JSON.stringify(input.payload),
        `<${id}@${input.messageIdDomain}>`,
        due,
        now,
      ],
    );
    queued += changes;
  }
  return queued;
}

/** The project's undo window in seconds; undefined: the instance default. */
export async function projectUndoWindow(db: Queryable, projectId: string): Promise<number | undefined> {
  const row = await db.get<{ undo_window_seconds: number | null }>(
    'SELECT undo_window_seconds FROM notification_settings WHERE project_id = ?',
    [projectId],
  );
  return row?.undo_window_seconds === null || row?.undo_window_seconds === undefined
    ? undefined
    : Number(row.undo_window_seconds);
}

/** Sets (or, with null, clears back to the instance default) the project's undo window. */
export async function setProjectUndoWindow(db: Queryable, projectId: string, seconds: number | null): Promise<void> {
  await db.run(
    `INSERT INTO notification_settings (project_id, undo_window_seconds, updated_at) VALUES (?, ?, ?)
     ON CONFLICT (project_id) DO UPDATE SET undo_window_seconds = excluded.undo_window_seconds,
       updated_at = excluded.updated_at`,
    [projectId, seconds, nowIso()],
  );
}

/** A person's follows and the e-mails queued or sent to them (issue 36's export), newest first. */
export async function notificationsOfUsers(db: Queryable, projectId: string, userIds: readonly string[]) {
  if (userIds.length === 0) return { follows: [], emails: [] };
  const list = userIds.map(() => '?').join(', ');
  const follows = await db.all<{ feature_id: string; created_at: string }>(
    `SELECT w.feature_id, w.created_at FROM follows w WHERE w.user_id IN (${list}) ORDER BY w.created_at DESC`,
    [...userIds],
  );
  const emails = await db.all<{
    id: string;
    feature_id: string | null;
    kind: string;
    payload: string;
    state: string;
    created_at: string;
    sent_at: string | null;
  }>(
    `SELECT id, feature_id, kind, payload, state, created_at, sent_at FROM notification_outbox
     WHERE project_id = ? AND user_id IN (${list}) ORDER BY created_at DESC`,
    [projectId, ...userIds],
  );
  return { follows, emails };
}

/** Erasing a person (issue 36): their follows and every e-mail queued or sent to them go. */
export async function eraseNotificationsOfUsers(
  tx: Queryable,
  projectId: string,
  userIds: readonly string[],
): Promise<{ follows: number; emails: number }> {
  if (userIds.length === 0) return { follows: 0, emails: 0 };
  const list = userIds.map(() => '?').join(', ');
  const follows = await tx.run(`DELETE FROM follows WHERE user_id IN (${list})`, [...userIds]);
  const emails = await tx.run(`DELETE FROM notification_outbox WHERE project_id = ? AND user_id IN (${list})`, [
    projectId,
    ...userIds,
  ]);
  return { follows: follows.changes, emails: emails.changes };
}
