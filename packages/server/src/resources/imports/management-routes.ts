/**
 * POST /projects/:projectId/imports: another tool's export (a file, a JSON dump or a zip) as the
 * raw request body (any content type; the CLI) or as the one file of a multipart/form-data form
 * (the dashboard), streamed to a temporary file (upload.ts) and imported from there.
 */
import multipart from '@fastify/multipart';
import { Type } from 'typebox';
import { errorResponses } from '../../http/common-schemas.ts';
import { ProjectParams } from '../../http/management-schemas.ts';
import { BadRequestError } from '../../kernel/errors.ts';
import type { ManagementApp, ManagementDeps } from '../../routing/management/context.ts';
import { GENERIC_FIELDS, type GenericField } from './formats/generic.ts';
import { openInput } from './input.ts';
import { ImportQuery, ImportReportSchema } from './schemas.ts';
import { runImport } from './service.ts';
import { formToFile, isUploadPath, multipartLimits, removeUpload, streamToFile } from './upload.ts';

function pairs(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

function columnMapping(value: string | undefined): Partial<Record<GenericField, string>> {
  const out: Partial<Record<GenericField, string>> = {};
  for (const entry of pairs(value)) {
    const at = entry.indexOf('=');
    const field = GENERIC_FIELDS.find((name) => name.toLowerCase() === entry.slice(0, at).trim().toLowerCase());
    const column = entry.slice(at + 1).trim();
    if (at < 1 || !field || !column) {
      throw new BadRequestError(
        `Column mapping "${entry.slice(0, 80)}": expected <field>=<header>, fields ${GENERIC_FIELDS.join(', ')}`,
        [{ field: 'columns', message: 'expected <field>=<header>' }],
      );
    }
    out[field] = column;
  }
  return out;
}

const DEFAULT_NAME: Record<string, string> = {
  canny: 'upload.json',
  fider: 'upload.zip',
  featurebase: 'upload.json',
};

/** The name a lone file is reported under: the query's, the form's, else one after the content type or source. */
function uploadName(
  query: { source: string; filename?: string | undefined },
  formName: string | undefined,
  contentType: string,
) {
  return (
    query.filename ??
    formName ??
    (contentType.includes('csv') ? 'upload.csv' : contentType.includes('json') ? 'upload.json' : undefined) ??
    DEFAULT_NAME[query.source] ??
    'upload.csv'
  );
}

const BINARY = Type.String({ format: 'binary', description: 'The export file (CSV, JSON or zip)' });

export async function importManagementRoutes(app: ManagementApp, { db, config }: ManagementDeps): Promise<void> {
  const maxBytes = config.importMaxBytes;
  // This scope's only route takes the export as it is, whatever its type, to a temporary file;
  // a multipart form is read by the handler, after the access check.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', async (_request: unknown, payload: NodeJS.ReadableStream) =>
    streamToFile(payload, maxBytes, 'The body is empty: send the export file as the request body'),
  );
  await app.register(multipart, { limits: multipartLimits(maxBytes) });
  const removeRawUpload = async (request: { body: unknown }) => {
    if (isUploadPath(request.body)) await removeUpload(request.body);
  };
  app.addHook('onResponse', removeRawUpload);
  app.addHook('onRequestAbort', removeRawUpload);

  app.post(
    '/projects/:projectId/imports',
    {
      bodyLimit: maxBytes,
      config: { access: { project: 'admin' } },
      schema: {
        operationId: 'manageImport',
        summary:
          "Import another tool's export (Canny, UserVoice, Featurebase, Fider, a CSV) into the project: the file as the raw body, or as the one file part of a multipart/form-data form; with dryRun the report of what would be created, matched and skipped, else the same done in one transaction. A second run of the same export updates instead of duplicating; no e-mail goes out for imported history",
        tags: ['imports'],
        params: ProjectParams,
        querystring: ImportQuery,
        body: {
          content: {
            'application/octet-stream': { schema: BINARY },
            // Validated by formToFile (one file part, nothing else): the body is read after the access check.
            'multipart/form-data': {
              schema: Type.Unsafe<unknown>({
                properties: { file: BINARY },
                required: ['file'],
                description: 'A form with one file part (any name), the export; its filename names it in the report',
              }),
            },
          },
        },
        response: { 200: ImportReportSchema, ...errorResponses(400, 401, 403, 404, 413) },
      },
    },
    async (request) => {
      const { projectId } = request.params;
      const { source, dryRun, environment, map, columns } = request.query;
      const form = request.isMultipart() ? await formToFile(request.parts(), maxBytes) : undefined;
      // No body at all reaches no content-type parser: nothing to import.
      const path = form?.path ?? (isUploadPath(request.body) ? request.body : undefined);
      if (path === undefined) throw new BadRequestError('The body is empty: send the export file as the request body');
      try {
        const input = await openInput(
          path,
          uploadName(request.query, form?.filename, request.headers['content-type'] ?? ''),
        );
        return await runImport(db, projectId, input, {
          source,
          dryRun: dryRun ?? false,
          environment,
          statusMap: pairs(map),
          columns: columnMapping(columns),
        });
      } finally {
        if (form) await removeUpload(form.path);
      }
    },
  );
}
