/**
 * POST /projects/:projectId/imports: another tool's export as the raw request body (any content
 * type; a file, a JSON dump or a zip), streamed to a temporary file within IMPORT_BODY_LIMIT and
 * read from there (twice: validation, then the run), removed when the answer is sent.
 */
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import { Type } from 'typebox';
import { errorResponses } from '../../http/common-schemas.ts';
import { ProjectParams } from '../../http/management-schemas.ts';
import { BadRequestError, PayloadTooLargeError } from '../../kernel/errors.ts';
import { requireProjectAccess } from '../../management/access.ts';
import type { ManagementApp, ManagementDeps } from '../../management/context.ts';
import { GENERIC_FIELDS, type GenericField } from './formats/generic.ts';
import { openInput } from './input.ts';
import { ImportQuery, ImportReportSchema } from './schemas.ts';
import { runImport } from './service.ts';

/** 200 MiB: a large Canny dump or UserVoice export; it goes to disk, not memory. */
export const IMPORT_BODY_LIMIT = 200 * 1024 * 1024;
const TEMP_PREFIX = 'signpost-import-';

async function bodyToFile(payload: NodeJS.ReadableStream): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), TEMP_PREFIX));
  const path = join(dir, 'body');
  let bytes = 0;
  const limit = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      if (bytes > IMPORT_BODY_LIMIT)
        done(new PayloadTooLargeError(`An import may be at most ${IMPORT_BODY_LIMIT} bytes`));
      else done(null, chunk);
    },
  });
  try {
    await pipeline(payload, limit, createWriteStream(path));
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error instanceof PayloadTooLargeError ? error : new BadRequestError('The upload was cut off');
  }
  if (bytes === 0) {
    await rm(dir, { recursive: true, force: true });
    throw new BadRequestError('The body is empty: send the export file as the request body');
  }
  return path;
}

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

export async function importManagementRoutes(app: ManagementApp, { db }: ManagementDeps): Promise<void> {
  // This scope's only route takes the export as it is, whatever its type, to a temporary file.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', async (_request: unknown, payload: NodeJS.ReadableStream) => bodyToFile(payload));
  const removeUpload = async (request: { body: unknown }) => {
    const body = request.body;
    if (typeof body === 'string' && dirname(body).startsWith(join(tmpdir(), TEMP_PREFIX))) {
      await rm(dirname(body), { recursive: true, force: true });
    }
  };
  app.addHook('onResponse', removeUpload);
  app.addHook('onRequestAbort', removeUpload);

  app.post(
    '/projects/:projectId/imports',
    {
      bodyLimit: IMPORT_BODY_LIMIT,
      schema: {
        operationId: 'manageImport',
        summary:
          "Import another tool's export (Canny, UserVoice, Featurebase, Fider, a CSV) into the project: the file as the raw body; with dryRun the report of what would be created, matched and skipped, else the same done in one transaction. A second run of the same export updates instead of duplicating; no e-mail goes out for imported history (role: admin)",
        tags: ['imports'],
        params: ProjectParams,
        querystring: ImportQuery,
        body: Type.String({ description: 'The export file (CSV, JSON or zip) as the raw request body' }),
        response: { 200: ImportReportSchema, ...errorResponses(400, 401, 403, 404, 413) },
      },
    },
    async (request) => {
      const { projectId } = request.params;
      await requireProjectAccess(request, projectId, 'admin');
      const { source, dryRun, environment, map, columns, filename } = request.query;
      const contentType = request.headers['content-type'] ?? '';
      const name =
        filename ??
        (contentType.includes('csv') ? 'upload.csv' : contentType.includes('json') ? 'upload.json' : undefined) ??
        DEFAULT_NAME[source] ??
        'upload.csv';
      const input = await openInput(request.body, name);
      return runImport(db, projectId, input, {
        source,
        dryRun: dryRun ?? false,
        environment,
        statusMap: pairs(map),
        columns: columnMapping(columns),
      });
    },
  );
}
