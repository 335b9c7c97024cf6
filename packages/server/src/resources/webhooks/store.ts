/**
 * The store of `webhook_endpoints` (a project's webhook targets) and `webhook_deliveries` (the
 * durable outbox of messages to them, which is also their delivery log): the only code that runs
 * SQL on these two tables.
 */
import type { Database, Queryable } from '../../db/database.ts';
import { bool } from '../../db/database.ts';
import { newId, nowIso } from '../../kernel/ids.ts';
import type { WebhookFormat } from './format-names.ts';

// Endpoints

export interface EndpointRow {
  id: string;
  project_id: string;
  url: string;
  description: string | null;
  /** JSON array of event types. */
  events: string;
  format: WebhookFormat;
  enabled: number;
  secret_id: string;
  secret_hint: string;
  consecutive_failures: number;
  disabled_reason: string | null;
  disabled_at: string | null;
  /** When the team is to be told it was disabled (and the lease of the worker telling it); NULL: nothing to tell. */
  notice_due_at: string | null;
  notice_attempts: number;
  created_at: string;
  updated_at: string;
}

export interface NewEndpoint {
  url: string;
  description: string | null;
  events: readonly string[];
  format: WebhookFormat;
  enabled: boolean;
  secretId: string;
  secretHint: string;
}

export async function insertEndpoint(db: Queryable, projectId: string, input: NewEndpoint): Promise<EndpointRow> {
  const now = nowIso();
  const [row] = await db.all<EndpointRow>(
    `INSERT INTO webhook_endpoints (id, project_id, url, description, events, format, enabled, secret_id, secret_hint,
       consecutive_failures, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?) RETURNING *`,
    [
      newId('whe'),
      projectId,
      input.url,
      input.description,
      JSON.stringify(input.events),
      input.format,
      bool(input.enabled),
      input.secretId,
      input.secretHint,
      now,
      now,
    ],
  );
  return row!;
}

export async function listEndpoints(db: Queryable, projectId: string): Promise<EndpointRow[]> {
  return db.all<EndpointRow>('SELECT * FROM webhook_endpoints WHERE project_id = ? ORDER BY created_at, id', [
    projectId,
  ]);
}

export async function getEndpoint(db: Queryable, projectId: string, id: string): Promise<EndpointRow | undefined> {
  return db.get<EndpointRow>('SELECT * FROM webhook_endpoints WHERE id = ? AND project_id = ?', [id, projectId]);
}

export interface EndpointChanges {
  url?: string | undefined;
  description?: string | null | undefined;
  events?: readonly string[] | undefined;
  format?: WebhookFormat | undefined;
  enabled?: boolean | undefined;
  secretId?: string | undefined;
  secretHint?: string | undefined;
}

/** Changes an endpoint; enabling it again clears its failure count and the reason it was disabled. */
export async function updateEndpoint(
  db: Queryable,
  projectId: string,
  id: string,
  changes: EndpointChanges,
): Promise<EndpointRow | undefined> {
  const sets: string[] = ['updated_at = ?'];
  const params: (string | number | null)[] = [nowIso()];
  const set = (column: string, value: string | number | null | undefined) => {
    if (value === undefined) return;
    sets.push(`${column} = ?`);
    params.push(value);
  };
  set('url', changes.url);
  set('description', changes.description);
  set('events', changes.events === undefined ? undefined : JSON.stringify(changes.events));
  set('format', changes.format);
  set('secret_id', changes.secretId);
  set('secret_hint', changes.secretHint);
  if (changes.enabled !== undefined) {
    set('enabled', bool(changes.enabled));
    // Enabled again before the team was told: there is nothing to tell any more.
    if (changes.enabled)
      sets.push('consecutive_failures = 0, disabled_reason = NULL, disabled_at = NULL, notice_due_at = NULL');
  }
  const [row] = await db.all<EndpointRow>(
    `UPDATE webhook_endpoints SET ${sets.join(', ')} WHERE id = ? AND project_id = ? RETURNING *`,
    [...params, id, projectId],
  );
  return row;
}

export async function deleteEndpoint(db: Queryable, projectId: string, id: string): Promise<boolean> {
  const { changes } = await db.run('DELETE FROM webhook_endpoints WHERE id = ? AND project_id = ?', [id, projectId]);
  return changes > 0;
}

/** The enabled endpoints of a project (the domain-event subscriber picks those that chose the event). */
export async function enabledEndpoints(
  tx: Queryable,
  projectId: string,
): Promise<Pick<EndpointRow, 'id' | 'events'>[]> {
  return tx.all<Pick<EndpointRow, 'id' | 'events'>>(
    'SELECT id, events FROM webhook_endpoints WHERE project_id = ? AND enabled = 1',
    [projectId],
  );
}

/** A delivery succeeded: the endpoint's run of failures ends. Written only when there was one. */
export async function clearFailures(db: Queryable, endpointId: string): Promise<void> {
  await db.run('UPDATE webhook_endpoints SET consecutive_failures = 0 WHERE id = ? AND consecutive_failures <> 0', [
    endpointId,
  ]);
}

/**
 * A delivery was given up: one more failure in a row; at `disableAfter` the endpoint is disabled,
 * and in the same transaction the notice to its team is made due (`claimNotices`), so a crash
 * right after cannot lose it. Returns the endpoint when this call disabled it.
 */
export async function countFailure(
  db: Database,
  endpointId: string,
  disableAfter: number,
  reason: string,
): Promise<EndpointRow | undefined> {
  return db.transaction(async (tx) => {
    const [row] = await tx.all<{ consecutive_failures: number; enabled: number }>(
      `UPDATE webhook_endpoints SET consecutive_failures = consecutive_failures + 1 WHERE id = ?
       RETURNING consecutive_failures, enabled`,
      [endpointId],
    );
    if (!row || Number(row.enabled) !== 1 || Number(row.consecutive_failures) < disableAfter) return undefined;
    const [disabled] = await tx.all<EndpointRow>(
      `UPDATE webhook_endpoints SET enabled = 0, disabled_reason = ?, disabled_at = ?, updated_at = ?,
         notice_due_at = ?, notice_attempts = 0
        WHERE id = ? AND enabled = 1 RETURNING *`,
      [reason.slice(0, 500), nowIso(), nowIso(), nowIso(), endpointId],
    );
    return disabled;
  });
}

// Notices of disabled endpoints

const NOTICE_DUE = 'notice_due_at IS NOT NULL AND notice_due_at <= ? AND enabled = 0';

/** Whether a disabled endpoint's team is due to be told (a read only: an idle poll writes nothing). */
export async function anyNoticeDue(db: Queryable, now: string): Promise<boolean> {
  return (await db.all(`SELECT id FROM webhook_endpoints WHERE ${NOTICE_DUE} LIMIT 1`, [now])).length > 0;
}

/**
 * Claims the due notices until `leaseUntil` (their due time moves there, so a worker that dies
 * leaves them due again then), counting an attempt each. The condition is repeated on the row
 * itself: on PostgreSQL a row another process claimed meanwhile fails it, so each goes to one.
 */
export async function claimNotices(
  db: Queryable,
  { now, leaseUntil, limit }: { now: string; leaseUntil: string; limit: number },
): Promise<EndpointRow[]> {
  return db.all<EndpointRow>(
    `UPDATE webhook_endpoints SET notice_due_at = ?, notice_attempts = notice_attempts + 1
      WHERE id IN (SELECT id FROM webhook_endpoints WHERE ${NOTICE_DUE} ORDER BY notice_due_at LIMIT ?)
        AND ${NOTICE_DUE}
      RETURNING *`,
    [leaseUntil, now, limit, now],
  );
}

/** The notice went out (`retryAt` null), or failed and is due again at `retryAt`, or was given up (null too). */
export async function settleNotice(db: Queryable, endpointId: string, retryAt: string | null): Promise<void> {
  await db.run('UPDATE webhook_endpoints SET notice_due_at = ? WHERE id = ?', [retryAt, endpointId]);
}

// Deliveries

export type DeliveryState = 'pending' | 'sending' | 'delivered' | 'failed' | 'skipped';

export interface DeliveryRow {
  seq: number;
  id: string;
  message_id: string;
  endpoint_id: string;
  project_id: string;
  event: string;
  item_key: string;
  payload: string;
  state: DeliveryState;
  attempts: number;
  next_attempt_at: string;
  lease_until: string | null;
  last_status: number | null;
  last_response_ms: number | null;
  last_error: string | null;
  last_attempt_at: string | null;
  created_at: string;
  delivered_at: string | null;
}

export interface NewDelivery {
  endpointId: string;
  projectId: string;
  event: string;
  itemKey: string;
  payload: string;
  /** Given for a redelivery: the message keeps its webhook-id. */
  messageId?: string | undefined;
}

/** Queues one message, due now, in the caller's transaction. */
export async function enqueueDelivery(tx: Queryable, input: NewDelivery): Promise<DeliveryRow> {
  const now = nowIso();
  const [row] = await tx.all<DeliveryRow>(
    `INSERT INTO webhook_deliveries (id, message_id, endpoint_id, project_id, event, item_key, payload, state, attempts,
       next_attempt_at, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', 0, ?, ?) RETURNING *`,
    [
      newId('whd'),
      input.messageId ?? newId('msg'),
      input.endpointId,
      input.projectId,
      input.event,
      input.itemKey,
      input.payload,
      now,
      now,
    ],
  );
  return row!;
}

/**
 * Due: pending and its time has come, or left `sending` by a worker whose lease ran out. Sendable:
 * its endpoint is enabled (a test message goes out to a disabled one too), and no earlier message
 * about the same item to the same endpoint is still waiting (an item's events arrive in order).
 */
const DUE = `((d.state = 'pending' AND d.next_attempt_at <= ?) OR (d.state = 'sending' AND d.lease_until <= ?))`;
const SENDABLE = `EXISTS (SELECT 1 FROM webhook_endpoints e WHERE e.id = d.endpoint_id AND (e.enabled = 1 OR d.event = 'webhook.test'))
  AND NOT EXISTS (SELECT 1 FROM webhook_deliveries p
    WHERE p.endpoint_id = d.endpoint_id AND p.item_key = d.item_key AND p.seq < d.seq AND p.state IN ('pending', 'sending'))`;

/**
 * Whether anything is due and sendable (a read only: polling an idle outbox, or one whose waiting
 * messages belong to disabled endpoints or wait for an item's earlier message, writes nothing).
 */
export async function anythingDue(db: Queryable, now: string): Promise<boolean> {
  const rows = await db.all(`SELECT d.seq FROM webhook_deliveries d WHERE ${DUE} AND ${SENDABLE} LIMIT 1`, [now, now]);
  return rows.length > 0;
}

/**
 * Claims up to `limit` due, sendable messages for this worker until `leaseUntil`, in one
 * statement; each claim counts as an attempt. On PostgreSQL the inner SELECT locks the rows FOR
 * UPDATE SKIP LOCKED, so workers of several processes claim disjoint rows (and a row another
 * claimed meanwhile fails the repeated condition); SQLite's single writer runs it alone.
 */
export async function claimDue(
  db: Database,
  input: { now: string; leaseUntil: string; limit: number },
): Promise<DeliveryRow[]> {
  const pick = `SELECT d.seq FROM webhook_deliveries d WHERE ${DUE} AND ${SENDABLE} ORDER BY d.seq LIMIT ?`;
  const which =
    db.dialect === 'postgres' ? `seq = ANY(ARRAY(${pick} FOR UPDATE OF d SKIP LOCKED))` : `seq IN (${pick})`;
  const again = DUE.replaceAll('d.', 'webhook_deliveries.');
  return db.all<DeliveryRow>(
    `UPDATE webhook_deliveries SET state = 'sending', lease_until = ?, attempts = attempts + 1
      WHERE ${which} AND ${again}
      RETURNING *`,
    [input.leaseUntil, input.now, input.now, input.limit, input.now, input.now],
  );
}

export interface AttemptOutcome {
  status: number | null;
  responseMs: number | null;
  error: string | null;
}

/** The endpoint took the message (a 2xx answer). By id alone: even a worker whose lease ran out records that. */
export async function markDelivered(db: Queryable, id: string, outcome: AttemptOutcome): Promise<void> {
  const now = nowIso();
  await db.run(
    `UPDATE webhook_deliveries SET state = 'delivered', delivered_at = ?, last_attempt_at = ?, lease_until = NULL,
       last_status = ?, last_response_ms = ?, last_error = NULL WHERE id = ?`,
    [now, now, outcome.status, outcome.responseMs, id],
  );
}

/**
 * A failed attempt: back to `pending` until `retryAt`, or `failed` for good when `retryAt` is
 * null. Only while this worker still holds its lease; true when it did.
 */
export async function markFailed(
  db: Queryable,
  id: string,
  lease: string,
  outcome: AttemptOutcome,
  retryAt: string | null,
): Promise<boolean> {
  const { changes } = await db.run(
    `UPDATE webhook_deliveries SET state = ?, next_attempt_at = COALESCE(?, next_attempt_at), lease_until = NULL,
       last_status = ?, last_response_ms = ?, last_error = ?, last_attempt_at = ?
     WHERE id = ? AND state = 'sending' AND lease_until = ?`,
    [
      retryAt === null ? 'failed' : 'pending',
      retryAt,
      outcome.status,
      outcome.responseMs,
      (outcome.error ?? '').slice(0, 1000),
      nowIso(),
      id,
      lease,
    ],
  );
  return changes > 0;
}

/** Hands a claimed message back unsent (the worker is stopping): pending again, its attempt not counted. */
export async function release(db: Queryable, id: string, lease: string): Promise<void> {
  await db.run(
    `UPDATE webhook_deliveries SET state = 'pending', lease_until = NULL, attempts = attempts - 1
      WHERE id = ? AND state = 'sending' AND lease_until = ?`,
    [id, lease],
  );
}

/** Deletes settled messages (delivered, failed, skipped) created before `before`: the log's retention. */
export async function pruneSettled(db: Queryable, before: string): Promise<number> {
  const { changes } = await db.run(
    "DELETE FROM webhook_deliveries WHERE state IN ('delivered', 'failed', 'skipped') AND created_at < ?",
    [before],
  );
  return changes;
}

/** An endpoint's messages, newest first (the delivery log). */
export async function listDeliveries(
  db: Queryable,
  projectId: string,
  endpointId: string,
  limit: number,
  offset: number,
): Promise<{ rows: DeliveryRow[]; total: number }> {
  const rows = await db.all<DeliveryRow>(
    `SELECT * FROM webhook_deliveries WHERE endpoint_id = ? AND project_id = ? ORDER BY seq DESC LIMIT ? OFFSET ?`,
    [endpointId, projectId, limit, offset],
  );
  const count = await db.get<{ n: number }>(
    'SELECT COUNT(*) AS n FROM webhook_deliveries WHERE endpoint_id = ? AND project_id = ?',
    [endpointId, projectId],
  );
  return { rows, total: Number(count?.n ?? 0) };
}

export async function getDelivery(
  db: Queryable,
  projectId: string,
  endpointId: string,
  id: string,
): Promise<DeliveryRow | undefined> {
  return db.get<DeliveryRow>('SELECT * FROM webhook_deliveries WHERE id = ? AND endpoint_id = ? AND project_id = ?', [
    id,
    endpointId,
    projectId,
  ]);
}
