/**
 * The use cases of error alert rules (issue 31), one per action, shared by every surface: the
 * management API (alert-routes.ts; the dashboard and the CLI call it), and the MCP tool `errors`
 * (actions alerts, set_alert, delete_alert). Each checks what the rule's shape cannot say (a
 * spike's N and M, recipients in the project's team, the per-project cap) and answers 400 or 404
 * with nothing changed.
 *
 * Muting a rule is replacing it with `enabled: false` (and unmuting with `true`): a muted rule
 * keeps its settings and fires for nothing.
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
}

/** The rule a body asks for, checked: a spike's N and M, and recipients in the project's team. */
async function ruleInput(db: Queryable, projectId: string, body: AlertRuleBody): Promise<AlertRuleInput> {
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
    enabled: body.enabled ?? true,
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
  const input = await ruleInput(db, projectId, body);
  if ((await listAlertRules(db, projectId)).length >= RULES_PER_PROJECT_MAX) {
    throw new BadRequestError(`A project has at most ${RULES_PER_PROJECT_MAX} alert rules`);
  }
  return createAlertRule(db, projectId, input);
}

/** Replaces the rule (muting and unmuting included: `enabled`), or a 404. */
export async function replaceRule(
  db: Queryable,
  projectId: string,
  ruleId: string,
  body: AlertRuleBody,
): Promise<AlertRule> {
  const input = await ruleInput(db, projectId, body);
  const rule = await updateAlertRule(db, projectId, ruleId, input);
  if (!rule) throw new NotFoundError();
  return rule;
}

/** Deletes the rule, or a 404. */
export async function removeRule(db: Queryable, projectId: string, ruleId: string): Promise<void> {
  if (!(await deleteAlertRule(db, projectId, ruleId))) throw new NotFoundError();
}
