/** A project's notification settings: the undo window of follower e-mails (issue 30). */
import { Type } from 'typebox';
import { errorResponses } from '../../http/common-schemas.ts';
import type { ManagementApp, ManagementDeps } from '../../routing/management/context.ts';
import { ProjectParams } from '../../http/management-schemas.ts';
import { projectUndoWindow, setProjectUndoWindow } from './store.ts';

const tags = ['notifications'];

const Settings = Type.Object(
  {
    undoWindowSeconds: Type.Integer({
      description:
        'Seconds a status-change e-mail waits before it goes out; changes within it collapse into one message (none when the idea ends where it started)',
    }),
    projectValue: Type.Union([Type.Integer(), Type.Null()], {
      description: "The project's own setting; null: the server's default (NOTIFY_UNDO_SECONDS)",
    }),
  },
  { additionalProperties: false },
);

const SettingsBody = Type.Object({
  undoWindowSeconds: Type.Union([Type.Integer({ minimum: 0, maximum: 3600 }), Type.Null()], {
    description: '0 to 3600 seconds; null goes back to the server default',
  }),
});

export async function notificationManagementRoutes(app: ManagementApp, { db, config }: ManagementDeps): Promise<void> {
  const answer = async (projectId: string) => {
    const own = await projectUndoWindow(db, projectId);
    return { undoWindowSeconds: own ?? config.outbox.undoWindowSeconds, projectValue: own ?? null };
  };

  app.get(
    '/projects/:projectId/notification-settings',
    {
      config: { access: { project: 'member' } },
      schema: {
        operationId: 'manageGetNotificationSettings',
        summary: "The project's follower e-mail settings",
        tags,
        params: ProjectParams,
        response: { 200: Settings, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      return answer(request.params.projectId);
    },
  );

  app.put(
    '/projects/:projectId/notification-settings',
    {
      config: { access: { project: 'admin' } },
      schema: {
        operationId: 'manageSetNotificationSettings',
        summary: "Set the project's undo window of follower e-mails",
        tags,
        params: ProjectParams,
        body: SettingsBody,
        response: { 200: Settings, ...errorResponses(400, 401, 403, 404, 413, 415) },
      },
    },
    async (request) => {
      const { projectId } = request.params;
      await setProjectUndoWindow(db, projectId, request.body.undoWindowSeconds);
      return answer(projectId);
    },
  );
}
