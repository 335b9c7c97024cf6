/**
 * A bug report's screenshots for the team (issue 35): listed with the item and served as the image
 * only through the management API (members may read), never publicly.
 */
import { Type } from 'typebox';
import { errorResponses, Timestamp } from '../../http/common-schemas.ts';
import type { ManagementApp, ManagementDeps } from '../../routing/management/context.ts';
import { FeatureParams } from './management-schemas.ts';
import { teamAttachmentContent, teamAttachments } from './widget-service.ts';

const tags = ['features'];
const AttachmentList = Type.Object(
  {
    attachments: Type.Array(
      Type.Object(
        {
          id: Type.String(),
          featureId: Type.String(),
          contentType: Type.String(),
          size: Type.Integer(),
          createdAt: Timestamp,
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
const AttachmentParams = Type.Object({
  ...FeatureParams.properties,
  attachmentId: Type.String({ minLength: 1, maxLength: 100 }),
});

export async function attachmentManagementRoutes(app: ManagementApp, { db }: ManagementDeps): Promise<void> {
  app.get(
    '/projects/:projectId/features/:featureId/attachments',
    {
      config: { access: { project: 'member' } },
      schema: {
        operationId: 'listFeatureAttachments',
        summary: "An item's attachments (the widget's screenshots)",
        tags,
        params: FeatureParams,
        response: { 200: AttachmentList, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const { projectId, featureId } = request.params;
      return teamAttachments(db, projectId, featureId);
    },
  );

  app.get(
    '/projects/:projectId/features/:featureId/attachments/:attachmentId',
    {
      config: { access: { project: 'member' } },
      schema: {
        operationId: 'getFeatureAttachment',
        summary: 'One attachment as its image',
        tags,
        params: AttachmentParams,
        response: {
          200: {
            description: 'The image, as uploaded',
            content: { 'image/*': { schema: Type.Unsafe({ type: 'string', format: 'binary' }) } },
          },
          ...errorResponses(401, 403, 404),
        },
      },
    },
    async (request, reply) => {
      const { projectId, featureId, attachmentId } = request.params;
      const { contentType, content } = await teamAttachmentContent(db, projectId, featureId, attachmentId);
      // Served as an image only, never sniffed as anything else, and kept out of shared caches.
      return reply
        .type(contentType)
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'")
        .header('cache-control', 'private, max-age=3600')
        .serializer((payload: unknown) => payload as string)
        .send(Buffer.from(content) as never);
    },
  );
}
