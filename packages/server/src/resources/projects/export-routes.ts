/**
 * A project's export (issue 36): one zip of JSON lines per table with a manifest, streamed as it
 * is read (admin). POST, not GET: every export is new (its manifest has the time), and it is
 * personal data leaving the product.
 */
import { PassThrough } from 'node:stream';
import { Type } from 'typebox';
import { errorResponses } from '../../http/common-schemas.ts';
import { projectAccess } from '../../routing/management/declared-access.ts';
import type { ManagementApp, ManagementDeps } from '../../routing/management/context.ts';
import { ProjectIdParams } from './schemas.ts';
import { exportProject } from './service.ts';

export async function projectExportRoutes(app: ManagementApp, { db }: ManagementDeps): Promise<void> {
  app.post(
    '/projects/:projectId/export',
    {
      config: { access: { project: 'admin' } },
      schema: {
        operationId: 'manageExportProject',
        summary:
          "The project's data as one zip: tables/<table>.jsonl (a JSON array of column values per row) and manifest.json; secrets left out",
        tags: ['projects'],
        params: ProjectIdParams,
        response: {
          200: {
            description: 'A zip archive (application/zip), streamed',
            content: { 'application/zip': { schema: Type.String({ format: 'binary' }) } },
          },
          ...errorResponses(401, 403, 404),
        },
      },
    },
    async (request, reply) => {
      const project = projectAccess(request);
      const stream = new PassThrough();
      // A failure half-way ends the download short (the zip is then unreadable), never a 500 page.
      exportProject(db, project.id, stream).catch((error: unknown) => {
        request.log.error({ err: error }, 'project export failed');
        stream.destroy(error instanceof Error ? error : new Error(String(error)));
      });
      const stamp = new Date().toISOString().slice(0, 10);
      return (
        reply
          .header('content-type', 'application/zip')
          .header('content-disposition', `attachment; filename="${project.slug}-${stamp}.zip"`)
          // The typed reply follows the schema's binary string; Fastify sends a stream as it comes.
          .send(stream as unknown as string)
      );
    },
  );
}
