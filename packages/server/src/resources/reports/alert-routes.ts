/**
 * Error alert rules in the management API (issue 31): list, read, create, replace and delete a
 * project's rules. Members read; admins change. Recipients must be members of the project's team.
 */
import { Type } from 'typebox';
import { errorResponses, StringEnum, Timestamp } from '../../http/common-schemas.ts';
import { ProjectParams } from '../../http/management-schemas.ts';
import { BadRequestError, NotFoundError } from '../../kernel/errors.ts';
import { requireProjectAccess } from '../../management/access.ts';
import type { ManagementApp, ManagementDeps } from '../../management/context.ts';
import { DEFAULT_QUIET_MINUTES } from './alerts.ts';
import { teamRecipients } from './alerts-read-model.ts';
import {
  ALERT_KINDS,
  type AlertRuleInput,
  createAlertRule,
  deleteAlertRule,
  getAlertRule,
  listAlertRules,
  updateAlertRule,
} from './store-alerts.ts';

const tags = ['error-alerts'];
const LEVELS = ['fatal', 'error', 'warning', 'info', 'debug'] as const;
/** Spike counts are exact up to the latest events a group keeps (ERROR_EVENTS_PER_GROUP, 100). */
export const SPIKE_EVENTS_MAX = 100;
const RULES_PER_PROJECT_MAX = 50;

const RuleParams = Type.Object({
  ...ProjectParams.properties,
  ruleId: Type.String({ minLength: 1, maxLength: 100 }),
});

const RuleBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    kind: StringEnum(ALERT_KINDS, {
      description: 'new_group, regression, or spike (N events of a group in M minutes)',
    }),
    sdkEnvironment: Type.Optional(
      Type.Union([Type.String({ minLength: 1, maxLength: 100 }), Type.Null()], {
        description: "The SDK environment watched (e.g. 'production'); null or absent: every one",
      }),
    ),
    levels: Type.Optional(
      Type.Union([Type.Array(StringEnum(LEVELS), { maxItems: 5, uniqueItems: true }), Type.Null()], {
        description: 'The levels watched; null, absent or empty: every level',
      }),
    ),
    spikeEvents: Type.Optional(
      Type.Integer({ minimum: 1, maximum: SPIKE_EVENTS_MAX, description: 'Spike: events of one group (N)' }),
    ),
    spikeMinutes: Type.Optional(Type.Integer({ minimum: 1, maximum: 1440, description: 'Spike: the window (M)' })),
    quietMinutes: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 10_080,
        description: `At most one alert per rule and group within this many minutes (default ${DEFAULT_QUIET_MINUTES})`,
      }),
    ),
    recipients: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
      maxItems: 100,
      uniqueItems: true,
      description: 'Account ids of team members to e-mail',
    }),
    webhooks: Type.Optional(
      Type.Boolean({ description: "Also send error.alert to the project's webhooks (default true)" }),
    ),
    enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

const Rule = Type.Object(
  {
    id: Type.String(),
    projectId: Type.String(),
    name: Type.String(),
    kind: StringEnum(ALERT_KINDS),
    sdkEnvironment: Type.Union([Type.String(), Type.Null()]),
    levels: Type.Union([Type.Array(Type.String()), Type.Null()]),
    spikeEvents: Type.Union([Type.Integer(), Type.Null()]),
    spikeMinutes: Type.Union([Type.Integer(), Type.Null()]),
    quietMinutes: Type.Integer(),
    recipients: Type.Array(Type.String()),
    webhooks: Type.Boolean(),
    enabled: Type.Boolean(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { additionalProperties: false, title: 'ErrorAlertRule' },
);

type Body = {
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
};

export async function errorAlertRoutes(app: ManagementApp, { db }: ManagementDeps): Promise<void> {
  /** The rule a body asks for, checked: a spike's N and M, and recipients in the project's team. */
  const ruleInput = async (projectId: string, body: Body): Promise<AlertRuleInput> => {
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
  };

  app.get(
    '/projects/:projectId/error-alerts',
    {
      schema: {
        operationId: 'manageListErrorAlertRules',
        summary: "The project's error alert rules (role: member)",
        tags,
        params: ProjectParams,
        response: { 200: Type.Object({ rules: Type.Array(Rule) }), ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const { projectId } = request.params as { projectId: string };
      await requireProjectAccess(request, projectId, 'member');
      return { rules: await listAlertRules(db, projectId) };
    },
  );

  app.get(
    '/projects/:projectId/error-alerts/:ruleId',
    {
      schema: {
        operationId: 'manageGetErrorAlertRule',
        summary: 'An error alert rule (role: member)',
        tags,
        params: RuleParams,
        response: { 200: Rule, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const { projectId, ruleId } = request.params as { projectId: string; ruleId: string };
      await requireProjectAccess(request, projectId, 'member');
      const rule = await getAlertRule(db, projectId, ruleId);
      if (!rule) throw new NotFoundError();
      return rule;
    },
  );

  app.post(
    '/projects/:projectId/error-alerts',
    {
      schema: {
        operationId: 'manageCreateErrorAlertRule',
        summary:
          'Create an error alert rule: new group, regression or spike, filtered by SDK environment and level, to e-mail and webhooks (role: admin)',
        tags,
        params: ProjectParams,
        body: RuleBody,
        response: { 201: Rule, ...errorResponses(400, 401, 403, 404, 409, 413, 415) },
      },
    },
    async (request, reply) => {
      const { projectId } = request.params as { projectId: string };
      await requireProjectAccess(request, projectId, 'admin');
      const input = await ruleInput(projectId, request.body as Body);
      if ((await listAlertRules(db, projectId)).length >= RULES_PER_PROJECT_MAX) {
        throw new BadRequestError(`A project has at most ${RULES_PER_PROJECT_MAX} alert rules`);
      }
      reply.code(201);
      return createAlertRule(db, projectId, input);
    },
  );

  app.put(
    '/projects/:projectId/error-alerts/:ruleId',
    {
      schema: {
        operationId: 'manageReplaceErrorAlertRule',
        summary: 'Replace an error alert rule (role: admin)',
        tags,
        params: RuleParams,
        body: RuleBody,
        response: { 200: Rule, ...errorResponses(400, 401, 403, 404, 413, 415) },
      },
    },
    async (request) => {
      const { projectId, ruleId } = request.params as { projectId: string; ruleId: string };
      await requireProjectAccess(request, projectId, 'admin');
      const input = await ruleInput(projectId, request.body as Body);
      const rule = await updateAlertRule(db, projectId, ruleId, input);
      if (!rule) throw new NotFoundError();
      return rule;
    },
  );

  app.delete(
    '/projects/:projectId/error-alerts/:ruleId',
    {
      schema: {
        operationId: 'manageDeleteErrorAlertRule',
        summary: 'Delete an error alert rule (role: admin)',
        tags,
        params: RuleParams,
        response: { 204: { type: 'null', description: 'Deleted' }, ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { projectId, ruleId } = request.params as { projectId: string; ruleId: string };
      await requireProjectAccess(request, projectId, 'admin');
      if (!(await deleteAlertRule(db, projectId, ruleId))) throw new NotFoundError();
      reply.code(204);
      return null;
    },
  );
}
