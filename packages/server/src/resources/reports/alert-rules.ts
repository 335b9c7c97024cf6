/**
 * The use cases of error alert rules (issue 31), one per action, shared by every surface: the
 * management API (alert-routes.ts; the dashboard and the CLI call it), and the MCP tool `errors`
 * (actions alerts, set_alert, delete_alert). Each checks what the rule's shape cannot say (a
 * spike's N and M, recipients in the project's team, the per-project cap) and answers 400 or 404
 * with nothing changed.
 *
 * Muting: `mute` of a body is 1h, 24h or 7d (the rule's `mutedUntil` is set that far from now:
 * it fires for nothing until then, then fires again by itself), `forever` (`enabled: false`, until
 * unmuted) or `off` (enabled, no `mutedUntil`). A body may instead give `mutedUntil` itself (a
 * time, or null); a replacement that gives neither keeps the rule's `mutedUntil`. A muted rule
 * keeps its settings.
 */
import type { Queryable } from '../../db/database.ts';
import { BadRequestError, NotFoundError } from '../../kernel/errors.ts';
import { DEFAULT_QUIET_MINUTES } from './alerts.ts';
import { teamRecipients } from './alerts-read-model.ts';
import {
  type AlertRule,
  type AlertRuleInput,
  createAlertRule,
  deleteAlertRule,
  getAlertRule,
  listAlertRules,
  updateAlertRule,
} from './store-alerts.ts';

export const ALERT_LEVELS = ['fatal', 'error', 'warning', 'info', 'debug'] as const;
/**
 * The largest N of a spike rule. Spikes are counted from every event a group receives (its exact
 * count, marked by the alert worker each tick; see alerts.ts), not only the events it keeps.
 */
export const SPIKE_EVENTS_MAX = 1_000_000;
export const SPIKE_MINUTES_MAX = 1440;
export const RULES_PER_PROJECT_MAX = 50;
/** What `mute` takes: a time from now, until unmuted, or unmuted. */
export const MUTE_CHOICES = ['1h', '24h', '7d', 'forever', 'off'] as const;
export type MuteChoice = (typeof MUTE_CHOICES)[number];
const MUTE_HOURS: Partial<Record<MuteChoice, number>> = { '1h': 1, '24h': 24, '7d': 7 * 24 };

/** A rule as a surface sends it (the management API's body; MCP's `rule`), shape already checked. */
export interface AlertRuleBody {
  name: string;
  kind: AlertRuleInput['kind'];
  sdkEnvironment?: string | null;
  levels?: string[] | null;
  spikeEvents?: number;
  spikeMinutes?: number;
  quietMinutes?: number;
  recipients: string[];
  webhooks?: boolean;
  enabled?: boolean;
  /** Mute for 1h, 24h or 7d from now, until unmuted (`forever`), or unmute (`off`). */
  mute?: MuteChoice;
  /** Muted until this time (ISO 8601), or null: not muted for a time. */
  mutedUntil?: string | null;
}

/** `enabled` and `mutedUntil` as a body asks for them; `current` is the replaced rule's. */
function muteOf(
  body: AlertRuleBody,
  current: string | null,
  now: Date,
): { enabled: boolean; mutedUntil: string | null } {
  if (body.mute !== undefined && body.mutedUntil !== undefined) {
    const message = 'give either mute or mutedUntil';
    throw new BadRequestError(`Invalid mute: ${message}`, [{ field: 'mute', message }]);
  }
  const hours = body.mute === undefined ? undefined : MUTE_HOURS[body.mute];
  if (hours !== undefined)
    return { enabled: true, mutedUntil: new Date(now.getTime() + hours * 3_600_000).toISOString() };
  if (body.mute === 'forever') return { enabled: false, mutedUntil: null };
  if (body.mute === 'off') return { enabled: true, mutedUntil: null };
  if (body.mutedUntil !== undefined && body.mutedUntil !== null) {
    const at = Date.parse(body.mutedUntil);
    if (!Number.isFinite(at)) {
      const message = 'not a date-time';
      throw new BadRequestError(`Invalid mutedUntil: ${message}`, [{ field: 'mutedUntil', message }]);
    }
    return { enabled: body.enabled ?? true, mutedUntil: new Date(at).toISOString() };
  }
  return { enabled: body.enabled ?? true, mutedUntil: body.mutedUntil === null ? null : current };
}

/** The rule a body asks for, checked: a spike's N and M, and recipients in the project's team. */
async function ruleInput(
  db: Queryable,
  projectId: string,
  body: AlertRuleBody,
  currentMutedUntil: string | null,
): Promise<AlertRuleInput> {
  if (body.kind === 'spike') {
    for (const field of ['spikeEvents', 'spikeMinutes'] as const) {
      if (body[field] === undefined) {
        throw new BadRequestError(`A spike rule needs ${field}`, [{ field, message: 'required for a spike rule' }]);
      }
    }
  }
  const members = new Set((await teamRecipients(db, projectId, body.recipients)).map((r) => r.id));
  const strangers = body.recipients.filter((id) => !members.has(id));
  if (strangers.length > 0) {
    const message = 'not a member of the project team';
    throw new BadRequestError(`Invalid recipients: ${message}`, [{ field: 'recipients', message }]);
  }
  return {
    name: body.name,
    kind: body.kind,
    sdkEnvironment: body.sdkEnvironment ?? null,
    levels: body.levels && body.levels.length > 0 ? body.levels : null,
    spikeEvents: body.spikeEvents ?? null,
    spikeMinutes: body.spikeMinutes ?? null,
    quietMinutes: body.quietMinutes ?? DEFAULT_QUIET_MINUTES,
    recipients: body.recipients,
    webhooks: body.webhooks ?? true,
    ...muteOf(body, currentMutedUntil, new Date()),
  };
}

export function listRules(db: Queryable, projectId: string): Promise<AlertRule[]> {
  return listAlertRules(db, projectId);
}

/** The rule, or a 404. */
export async function readRule(db: Queryable, projectId: string, ruleId: string): Promise<AlertRule> {
  const rule = await getAlertRule(db, projectId, ruleId);
  if (!rule) throw new NotFoundError();
  return rule;
}

export async function createRule(db: Queryable, projectId: string, body: AlertRuleBody): Promise<AlertRule> {
  const input = await ruleInput(db, projectId, body, null);
  if ((await listAlertRules(db, projectId)).length >= RULES_PER_PROJECT_MAX) {
    throw new BadRequestError(`A project has at most ${RULES_PER_PROJECT_MAX} alert rules`);
  }
  return createAlertRule(db, projectId, input);
}

/** Replaces the rule (muting and unmuting included: `mute`, `mutedUntil`, `enabled`), or a 404. */
export async function replaceRule(
  db: Queryable,
  projectId: string,
  ruleId: string,
  body: AlertRuleBody,
): Promise<AlertRule> {
  const current = await readRule(db, projectId, ruleId);
  const input = await ruleInput(db, projectId, body, current.mutedUntil);
  const rule = await updateAlertRule(db, projectId, ruleId, input);
  if (!rule) throw new NotFoundError();
  return rule;
}

/** Deletes the rule, or a 404. */
export async function removeRule(db: Queryable, projectId: string, ruleId: string): Promise<void> {
  if (!(await deleteAlertRule(db, projectId, ruleId))) throw new NotFoundError();
}
