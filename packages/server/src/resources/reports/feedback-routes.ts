/**
 * An error group's user feedback in the management API (issue 31): the bug reports Sentry's
 * `feedback` and `user_report` items made for the group's events (and those of groups merged
 * into it), with the name, e-mail, message and URL the user gave.
 */
import { Type } from 'typebox';
import { errorResponses, Timestamp } from '../../http/common-schemas.ts';
import { NotFoundError } from '../../kernel/errors.ts';
import type { ManagementApp, ManagementDeps } from '../../routing/management/context.ts';
import { GroupParams } from './group-schemas.ts';
import { getGroup } from './store-group-reads.ts';
import { listGroupFeedback } from './store-feedback.ts';
import { familyOf } from './store-groups.ts';

const Nullable = Type.Union([Type.String(), Type.Null()]);
const Feedback = Type.Object(
  {
    id: Type.String({ description: 'The bug report' }),
    message: Type.String(),
    name: Nullable,
    email: Nullable,
    url: Nullable,
    eventId: Type.Union([Type.String(), Type.Null()], { description: 'The associated event' }),
    status: Type.String(),
    createdAt: Timestamp,
  },
  { additionalProperties: false },
);

export async function errorFeedbackRoutes(app: ManagementApp, { db }: ManagementDeps): Promise<void> {
  app.get(
    '/projects/:projectId/error-groups/:groupId/feedback',
    {
      config: { access: { project: 'member' } },
      schema: {
        operationId: 'manageListErrorGroupFeedback',
        summary: "User feedback on an error group's events (Sentry feedback), as bug reports, newest first",
        tags: ['error-groups'],
        params: GroupParams,
        response: { 200: Type.Object({ feedback: Type.Array(Feedback) }), ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const { projectId, groupId } = request.params as { projectId: string; groupId: string };
      if (!(await getGroup(db, projectId, groupId))) throw new NotFoundError();
      const rows = await listGroupFeedback(db, await familyOf(db, groupId));
      return {
        feedback: rows.map((row) => {
          const meta = (row.metadata ? JSON.parse(row.metadata) : {}) as { feedback?: Record<string, string | null> };
          const given = meta.feedback ?? {};
          return {
            id: row.id,
            message: row.message,
            name: given['name'] ?? null,
            email: given['email'] ?? null,
            url: given['url'] ?? null,
            eventId: given['eventId'] ?? null,
            status: row.status,
            createdAt: row.first_seen_at,
          };
        }),
      };
    },
  );
}
