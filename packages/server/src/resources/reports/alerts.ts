/**
 * Error alerts (issue 31): a rule fires for a group when a new group is made, a resolved group
 * regresses, or a group has N events in M minutes (a spike), and the group's SDK environment and
 * level pass the rule's filters. A firing queues an e-mail to each chosen team member (the alert
 * outbox, sent by alert-worker.ts) and, when the rule says so, an `error.alert` message to the
 * project's webhooks, in one transaction, at most once per rule and group per quiet period.
 *
 * New-group and regression rules are read in the transaction of the write that made or regressed
 * the group (one read of the project's rules, only for such writes: repeats read nothing). Spikes
 * cost the write path nothing: the worker's tick (ERROR_ALERT_TICK_MS, a minute by default) marks
 * the exact event count of each group that changed, and counts, for each spike rule, every event
 * of the groups seen in its window as their count now less their count M minutes ago (as of the
 * latest mark then; checkSpikes). Kept events play no part, so N is not bounded by how many a
 * group keeps.
 */
import { emitDomainEvent, onDomainEvent, readOnce } from '../../db/domain-events.ts';
import type { Database, Queryable } from '../../db/database.ts';
import {
  type AlertKind,
  type AlertPayload,
  type AlertRule,
  claimFiring,
  enabledRules,
  enabledSpikeRules,
  enqueueAlertMails,
  markGroupCounts,
  spikeCandidates,
} from './store-alerts.ts';

/** The quiet period of a rule when none is given: at most one alert an hour per rule and group. */
export const DEFAULT_QUIET_MINUTES = 60;

interface FiringGroup {
  id: string;
  title: string;
  sdkEnvironment: string;
  level: string;
}

const matches = (rule: AlertRule, group: FiringGroup) =>
  (rule.sdkEnvironment === null || rule.sdkEnvironment === group.sdkEnvironment) &&
  (rule.levels === null || rule.levels.length === 0 || rule.levels.includes(group.level));

/**
 * Fires the rule for the group in `tx` unless it fired for it within its quiet period; true when
 * it fired.
 */
export async function fireRule(
  tx: Queryable,
  rule: AlertRule,
  group: FiringGroup,
  now: Date,
  messageIdDomain: string,
  spike?: { events: number; minutes: number },
): Promise<boolean> {
  if (!matches(rule, group)) return false;
  if (!(await claimFiring(tx, rule.id, group.id, now, rule.quietMinutes))) return false;
  const payload: AlertPayload = {
    reason: rule.kind,
    ruleName: rule.name,
    groupId: group.id,
    title: group.title,
    sdkEnvironment: group.sdkEnvironment,
    level: group.level,
    ...spike,
  };
  await enqueueAlertMails(tx, {
    projectId: rule.projectId,
    ruleId: rule.id,
    recipients: rule.recipients,
    payload,
    domain: messageIdDomain,
  });
  if (rule.webhooks) {
    await emitDomainEvent(tx, 'error.alert', { projectId: rule.projectId, ruleId: rule.id, ...payload });
  }
  return true;
}

/** Whether a rule is muted for a time at `now` (its `mutedUntil` not yet passed). */
export function isMuted(rule: Pick<AlertRule, 'mutedUntil'>, now: Date): boolean {
  return rule.mutedUntil !== null && Date.parse(rule.mutedUntil) > now.getTime();
}

/** Subscribes the alerts to new and regressed groups (app.ts, once per app). */
export function registerAlertHandlers(options: { messageIdDomain: string }): void {
  for (const [event, kind] of [
    ['error.new-group', 'new_group'],
    ['error.regressed', 'regression'],
  ] as const) {
    onDomainEvent(event, 'alerts', async (tx, change, shared) => {
      // Rules watch the live key environment; a test key's errors alert no one.
      if (change.environment !== 'live') return;
      const rules = await readOnce(shared, `alerts:${kind}:${change.projectId}`, () =>
        enabledRules(tx, change.projectId, kind as AlertKind),
      );
      const now = new Date();
      for (const rule of rules) {
        if (isMuted(rule, now)) continue;
        await fireRule(
          tx,
          rule,
          { id: change.groupId, title: change.title, sdkEnvironment: change.sdkEnvironment, level: change.level },
          now,
          options.messageIdDomain,
        );
      }
    });
  }
}

/**
 * One tick of spike detection: marks the exact counts of the groups of projects with spike rules
 * (store-alerts.ts markGroupCounts), then fires every spike rule for its groups over the count;
 * answers how many fired.
 */
export async function checkSpikes(db: Database, now: Date, messageIdDomain: string): Promise<number> {
  const rules = await enabledSpikeRules(db);
  const longest = new Map<string, number>();
  for (const rule of rules) {
    longest.set(rule.projectId, Math.max(longest.get(rule.projectId) ?? 0, rule.spikeMinutes ?? 60));
  }
  for (const [projectId, minutes] of longest) {
    await markGroupCounts(db, projectId, new Date(now.getTime() - minutes * 60_000).toISOString(), now.toISOString());
  }
  let fired = 0;
  for (const rule of rules) {
    // A rule muted for a time fires for nothing meanwhile (its groups' counts are still marked).
    if (isMuted(rule, now)) continue;
    const minutes = rule.spikeMinutes ?? 60;
    const events = rule.spikeEvents ?? 100;
    const since = new Date(now.getTime() - minutes * 60_000).toISOString();
    for (const group of await spikeCandidates(db, rule, since, events)) {
      const firing = { id: group.id, title: group.title, sdkEnvironment: group.sdk_environment, level: group.level };
      const done = await db.transaction((tx) =>
        fireRule(tx, rule, firing, now, messageIdDomain, { events: group.n, minutes }),
      );
      if (done) fired++;
    }
  }
  return fired;
}
