/**
 * The store of error_alert_rules, error_alert_firings and error_alert_outbox (issue 31's alerts):
 * the rules of a project, the quiet period of a rule and group (claimed in one statement), the
 * alert e-mails queued in the transaction that fired a rule (sent by alert-worker.ts, the lease
 * pattern of the follower outbox), and spikes: error_group_event_marks (the worker's marks of each
 * group's exact count) and the spike candidates read from error groups and their marks.
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

const TABLE = 'error_alert_outbox';

export const ALERT_KINDS = ['new_group', 'regression', 'spike'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

export interface AlertRule {
  id: string;
  projectId: string;
  name: string;
  kind: AlertKind;
  sdkEnvironment: string | null;
  levels: string[] | null;
  spikeEvents: number | null;
  spikeMinutes: number | null;
  quietMinutes: number;
  recipients: string[];
  webhooks: boolean;
  enabled: boolean;
  /** Muted until this time (ISO 8601), then firing again by itself; null: no timed mute. */
  mutedUntil: string | null;
  createdAt: string;
  updatedAt: string;
}

export type AlertRuleInput = Omit<AlertRule, 'id' | 'projectId' | 'createdAt' | 'updatedAt'>;

interface RuleRow {
  id: string;
  project_id: string;
  name: string;
  kind: AlertKind;
  sdk_environment: string | null;
  levels: string | null;
  spike_events: number | null;
  spike_minutes: number | null;
  quiet_minutes: number;
  recipients: string;
  webhooks: number;
  enabled: number;
  muted_until: string | null;
  created_at: string;
  updated_at: string;
}

const ruleOf = (row: RuleRow): AlertRule => ({
  id: row.id,
  projectId: row.project_id,
  name: row.name,
  kind: row.kind,
  sdkEnvironment: row.sdk_environment,
  levels: row.levels === null ? null : (JSON.parse(row.levels) as string[]),
  spikeEvents: row.spike_events === null ? null : Number(row.spike_events),
  spikeMinutes: row.spike_minutes === null ? null : Number(row.spike_minutes),
  quietMinutes: Number(row.quiet_minutes),
  recipients: JSON.parse(row.recipients) as string[],
  webhooks: Number(row.webhooks) === 1,
  enabled: Number(row.enabled) === 1,
  mutedUntil: row.muted_until,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

const values = (input: AlertRuleInput) => [
  input.name,
  input.kind,
  input.sdkEnvironment,
  input.levels === null ? null : JSON.stringify(input.levels),
  input.kind === 'spike' ? input.spikeEvents : null,
  input.kind === 'spike' ? input.spikeMinutes : null,
  input.quietMinutes,
  JSON.stringify(input.recipients),
  input.webhooks ? 1 : 0,
  input.enabled ? 1 : 0,
  input.mutedUntil,
];

export async function createAlertRule(db: Queryable, projectId: string, input: AlertRuleInput): Promise<AlertRule> {
  const now = nowIso();
  const row = await db.get<RuleRow>(
    `INSERT INTO error_alert_rules (id, project_id, name, kind, sdk_environment, levels, spike_events, spike_minutes,
       quiet_minutes, recipients, webhooks, enabled, muted_until, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
    [newId('alr'), projectId, ...values(input), now, now],
  );
  return ruleOf(row!);
}

export async function updateAlertRule(
  db: Queryable,
  projectId: string,
  ruleId: string,
  input: AlertRuleInput,
): Promise<AlertRule | undefined> {
  const row = await db.get<RuleRow>(
    `UPDATE error_alert_rules SET name = ?, kind = ?, sdk_environment = ?, levels = ?, spike_events = ?,
       spike_minutes = ?, quiet_minutes = ?, recipients = ?, webhooks = ?, enabled = ?,
       muted_until = ?, updated_at = ?
     WHERE id = ? AND project_id = ? RETURNING *`,
    [...values(input), nowIso(), ruleId, projectId],
  );
  return row && ruleOf(row);
}

export async function deleteAlertRule(db: Queryable, projectId: string, ruleId: string): Promise<boolean> {
  const { changes } = await db.run('DELETE FROM error_alert_rules WHERE id = ? AND project_id = ?', [
    ruleId,
    projectId,
  ]);
  return changes === 1;
}

export async function getAlertRule(db: Queryable, projectId: string, ruleId: string): Promise<AlertRule | undefined> {
  const row = await db.get<RuleRow>('SELECT * FROM error_alert_rules WHERE id = ? AND project_id = ?', [
    ruleId,
    projectId,
  ]);
  return row && ruleOf(row);
}

export async function listAlertRules(db: Queryable, projectId: string): Promise<AlertRule[]> {
  const rows = await db.all<RuleRow>('SELECT * FROM error_alert_rules WHERE project_id = ? ORDER BY created_at, id', [
    projectId,
  ]);
  return rows.map(ruleOf);
}

/** The enabled rules of a kind in a project (new group, regression: on the write path, once per write). */
export async function enabledRules(db: Queryable, projectId: string, kind: AlertKind): Promise<AlertRule[]> {
  const rows = await db.all<RuleRow>(
    'SELECT * FROM error_alert_rules WHERE project_id = ? AND kind = ? AND enabled = 1 ORDER BY id',
    [projectId, kind],
  );
  return rows.map(ruleOf);
}

/** Every enabled spike rule (the worker's tick). */
export async function enabledSpikeRules(db: Queryable): Promise<AlertRule[]> {
  const rows = await db.all<RuleRow>(
    "SELECT * FROM error_alert_rules WHERE kind = 'spike' AND enabled = 1 ORDER BY project_id, id",
  );
  return rows.map(ruleOf);
}

/**
 * Claims the rule's firing for the group: true when it had not fired for it within the quiet
 * period (and records now), false when it had. One statement, so two processes firing the same
 * rule and group at once fire it once.
 */
export async function claimFiring(
  tx: Queryable,
  ruleId: string,
  groupId: string,
  now: Date,
  quietMinutes: number,
): Promise<boolean> {
  const cutoff = new Date(now.getTime() - quietMinutes * 60_000).toISOString();
  const rows = await tx.all(
    `INSERT INTO error_alert_firings (rule_id, group_id, fired_at) VALUES (?, ?, ?)
     ON CONFLICT (rule_id, group_id) DO UPDATE SET fired_at = excluded.fired_at
       WHERE error_alert_firings.fired_at <= ?
     RETURNING rule_id`,
    [ruleId, groupId, now.toISOString(), cutoff],
  );
  return rows.length > 0;
}

/** A group whose events in the window reach a spike rule's count. */
export interface SpikeCandidate {
  id: string;
  title: string;
  sdk_environment: string;
  level: string;
  n: number;
}

/**
 * Marks the exact own count of the project's live groups seen since `since` whose count changed
 * since their last mark (an unchanged count has a mark already: counts only grow). One statement;
 * two processes marking at once add one mark each, or none.
 */
export async function markGroupCounts(db: Queryable, projectId: string, since: string, now: string): Promise<number> {
  const { changes } = await db.run(
    `INSERT INTO error_group_event_marks (group_id, marked_at, events)
     SELECT g.id, ?, g.own_events FROM error_groups g
      WHERE g.project_id = ? AND g.environment = 'live' AND g.last_seen_at >= ?
        AND NOT EXISTS (SELECT 1 FROM error_group_event_marks m WHERE m.group_id = g.id AND m.events = g.own_events)
     ON CONFLICT (group_id, marked_at) DO NOTHING`,
    [now, projectId, since],
  );
  return changes;
}

/**
 * The live groups of the rule's project with at least `events` events received since `since`
 * (groups seen since then only), counted from every event: the group's own count now, less the
 * count of its latest mark at or before `since`; 0 for a group first seen since; a group older
 * than its marks counts from its first mark (it is not known to have spiked before it).
 */
export async function spikeCandidates(
  db: Queryable,
  rule: AlertRule,
  since: string,
  events: number,
): Promise<SpikeCandidate[]> {
  const params: (string | number)[] = [since, since, rule.projectId, since];
  let filter = '';
  if (rule.sdkEnvironment !== null) {
    filter += ' AND g.sdk_environment = ?';
    params.push(rule.sdkEnvironment);
  }
  if (rule.levels !== null && rule.levels.length > 0) {
    filter += ` AND g.level IN (${rule.levels.map(() => '?').join(', ')})`;
    params.push(...rule.levels);
  }
  params.push(events);
  const rows = await db.all<SpikeCandidate>(
    `SELECT id, title, sdk_environment, level, n FROM (
       SELECT g.id, g.title, g.sdk_environment, g.level, g.own_events - COALESCE(
           (SELECT m.events FROM error_group_event_marks m WHERE m.group_id = g.id AND m.marked_at <= ?
             ORDER BY m.marked_at DESC LIMIT 1),
           CASE WHEN g.first_seen_at >= ? THEN 0 END,
           (SELECT MIN(m.events) FROM error_group_event_marks m WHERE m.group_id = g.id),
           g.own_events) AS n
         FROM error_groups g
        WHERE g.project_id = ? AND g.environment = 'live' AND g.last_seen_at >= ?${filter}) c
      WHERE n >= ?
      ORDER BY id`,
    params,
  );
  return rows.map((row) => ({ ...row, n: Number(row.n) }));
}

/**
 * Deletes the marks older than `cutoff` that a later mark, also older, replaces as the baseline:
 * each group keeps its latest mark before the cutoff. Answers how many went.
 */
export async function pruneGroupMarks(db: Queryable, cutoff: string): Promise<number> {
  const { changes } = await db.run(
    `DELETE FROM error_group_event_marks
      WHERE marked_at < ? AND EXISTS (SELECT 1 FROM error_group_event_marks n
        WHERE n.group_id = error_group_event_marks.group_id AND n.marked_at > error_group_event_marks.marked_at
          AND n.marked_at < ?)`,
    [cutoff, cutoff],
  );
  return changes;
}

// The alert outbox

export interface AlertPayload {
  reason: AlertKind;
  ruleName: string;
  groupId: string;
  title: string;
  sdkEnvironment: string;
  level: string;
  /** Spike: the events counted and the window. */
  events?: number;
  minutes?: number;
}

export interface AlertOutboxRow {
  id: string;
  project_id: string;
  rule_id: string;
  group_id: string;
  account_id: string;
  payload: string;
  message_id: string;
  state: string;
  attempts: number;
}

/** Queues one alert e-mail per recipient, in the caller's transaction. */
export async function enqueueAlertMails(
  tx: Queryable,
  input: { projectId: string; ruleId: string; recipients: readonly string[]; payload: AlertPayload; domain: string },
): Promise<void> {
  const now = nowIso();
  for (const accountId of input.recipients) {
    const id = newId('alm');
    await tx.run(
      `INSERT INTO error_alert_outbox (id, project_id, rule_id, group_id, account_id, payload, message_id, state,
         attempts, next_attempt_at, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', 0, ?, ?)`,
      [
        id,
        input.projectId,
        input.ruleId,
        input.payload.groupId,
        accountId,
        JSON.stringify(input.payload),
        `<${id}@${input.domain}>`,
        now,
        now,
      ],
    );
  }
}

export function anyAlertDue(db: Queryable, now: string): Promise<boolean> {
  return outboxAnythingDue(db, TABLE, now);
}

/** Claims due alert e-mails with a lease (the same statements as the follower outbox's). */
export function claimDueAlerts(
  db: Database,
  input: { now: string; leaseUntil: string; limit: number },
): Promise<AlertOutboxRow[]> {
  return outboxClaimDue<AlertOutboxRow>(
    db,
    TABLE,
    input,
    'id, project_id, rule_id, group_id, account_id, payload, message_id, state, attempts',
  );
}

export function markAlertSent(db: Queryable, id: string): Promise<void> {
  return outboxMarkSent(db, TABLE, id);
}

export function markAlertFailed(db: Queryable, id: string, lease: string, error: string, retryAt: string | null) {
  return outboxMarkFailed(db, TABLE, id, lease, error, retryAt);
}

export function markAlertSkipped(db: Queryable, id: string, reason: string): Promise<void> {
  return outboxMarkSkipped(db, TABLE, id, reason);
}

export function releaseAlert(db: Queryable, id: string, lease: string): Promise<void> {
  return outboxRelease(db, TABLE, id, lease);
}
