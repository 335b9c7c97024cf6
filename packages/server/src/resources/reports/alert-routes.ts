/**
 * Error alert rules in the management API (issue 31): list, read, create, replace and delete a
 * project's rules. Members read; admins change. Recipients must be members of the project's team.
 * Each route checks access and calls one use case of alert-rules.ts.
 */
import { Type } from 'typebox';
import { errorResponses } from '../../http/common-schemas.ts';
import { ProjectParams } from '../../http/management-schemas.ts';
import type { ManagementApp, ManagementDeps } from '../../routing/management/context.ts';
import { type AlertRuleBody, createRule, listRules, readRule, removeRule, replaceRule } from './alert-rules.ts';
import { Rule, RuleBody } from './alert-schemas.ts';

const tags = ['error-alerts'];

const RuleParams = Type.Object({
  ...ProjectParams.properties,
  ruleId: Type.String({ minLength: 1, maxLength: 100 }),
});

export async function errorAlertRoutes(app: ManagementApp, { db }: ManagementDeps): Promise<void> {
  app.get(
    '/projects/:projectId/error-alerts',
    {
      config: { access: { project: 'member' } },
      schema: {
        operationId: 'manageListErrorAlertRules',
        summary: "The project's error alert rules",
        tags,
        params: ProjectParams,
        response: { 200: Type.Object({ rules: Type.Array(Rule) }), ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const { projectId } = request.params as { projectId: string };
      return { rules: await listRules(db, projectId) };
    },
  );

  app.get(
    '/projects/:projectId/error-alerts/:ruleId',
    {
      config: { access: { project: 'member' } },
      schema: {
        operationId: 'manageGetErrorAlertRule',
        summary: 'An error alert rule',
        tags,
        params: RuleParams,
        response: { 200: Rule, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const { projectId, ruleId } = request.params as { projectId: string; ruleId: string };
      return readRule(db, projectId, ruleId);
    },
  );

  app.post(
    '/projects/:projectId/error-alerts',
    {
      config: { access: { project: 'admin' } },
      schema: {
        operationId: 'manageCreateErrorAlertRule',
        summary:
          'Create an error alert rule: new group, regression or spike, filtered by SDK environment and level, to e-mail and webhooks',
        tags,
        params: ProjectParams,
        body: RuleBody,
        response: { 201: Rule, ...errorResponses(400, 401, 403, 404, 409, 413, 415) },
      },
    },
    async (request, reply) => {
      const { projectId } = request.params as { projectId: string };
      const rule = await createRule(db, projectId, request.body as AlertRuleBody);
      reply.code(201);
      return rule;
    },
  );

  app.put(
    '/projects/:projectId/error-alerts/:ruleId',
    {
      config: { access: { project: 'admin' } },
      schema: {
        operationId: 'manageReplaceErrorAlertRule',
        summary: 'Replace an error alert rule; `enabled: false` mutes it',
        tags,
        params: RuleParams,
        body: RuleBody,
        response: { 200: Rule, ...errorResponses(400, 401, 403, 404, 413, 415) },
      },
    },
    async (request) => {
      const { projectId, ruleId } = request.params as { projectId: string; ruleId: string };
      return replaceRule(db, projectId, ruleId, request.body as AlertRuleBody);
    },
  );

  app.delete(
    '/projects/:projectId/error-alerts/:ruleId',
    {
      config: { access: { project: 'admin' } },
      schema: {
        operationId: 'manageDeleteErrorAlertRule',
        summary: 'Delete an error alert rule',
        tags,
        params: RuleParams,
        response: { 204: { type: 'null', description: 'Deleted' }, ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { projectId, ruleId } = request.params as { projectId: string; ruleId: string };
      await removeRule(db, projectId, ruleId);
      reply.code(204);
      return null;
    },
  );
}
