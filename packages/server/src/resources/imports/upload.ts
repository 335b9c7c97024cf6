/**
 * How an export reaches the import: streamed to a temporary file of at most IMPORT_MAX_BYTES
 * (config `importMaxBytes`, 200 MiB unless set), from either body POST /projects/:projectId/imports takes:
 *
 * - the raw request body (the CLI: any content type, the file as it is);
 * - a multipart/form-data form (the dashboard: one file part, its filename kept for the report
 *   and errors; no other part: the options stay in the query string, as for the raw body).
 *
 * The file is read from disk (twice: validation, then the run), never held in memory, and removed
 * when the answer is sent. A form that is not one file is a 400 that says what to send; nothing is
 * stored from it.
 */
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { MultipartFile } from '@fastify/multipart';
import { BadRequestError, PayloadTooLargeError } from '../../kernel/errors.ts';

const TEMP_PREFIX = 'signpost-import-';

/** busboy's limits for the form: one file of at most `maxBytes`, nothing else. */
export function multipartLimits(maxBytes: number) {
  return { files: 1, fields: 0, parts: 1, fileSize: maxBytes };
}

const tooLarge = (maxBytes: number) => new PayloadTooLargeError(`An import may be at most ${maxBytes} bytes`);

/** Whether `path` is a file this module made (the raw body's parser hands its path on as the body). */
export function isUploadPath(path: unknown): path is string {
  return typeof path === 'string' && dirname(path).startsWith(join(tmpdir(), TEMP_PREFIX));
}

export async function removeUpload(path: string): Promise<void> {
  if (isUploadPath(path)) await rm(dirname(path), { recursive: true, force: true });
}

/** Copies a stream to a new temporary file, refusing more than `maxBytes` or none. */
export async function streamToFile(
  payload: NodeJS.ReadableStream,
  maxBytes: number,
  emptyMessage: string,
): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), TEMP_PREFIX));
  const path = join(dir, 'body');
  let bytes = 0;
  const limit = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      if (bytes > maxBytes) done(tooLarge(maxBytes));
      else done(null, chunk);
    },
  });
  try {
    await pipeline(payload, limit, createWriteStream(path));
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw formProblem(error, maxBytes) ?? new BadRequestError('The upload was cut off');
  }
  if (bytes === 0) {
    await rm(dir, { recursive: true, force: true });
    throw new BadRequestError(emptyMessage);
  }
  return path;
}

/**
 * @fastify/multipart's and busboy's errors as the answer they deserve: a file over the limit is a
 * 413 (as for the raw body); a second file, a field or a form that does not parse is a 400 saying
 * what to send (the plugin calls the limits 413s, but nothing here was too large).
 */
function formProblem(error: unknown, maxBytes: number): BadRequestError | PayloadTooLargeError | undefined {
  if (error instanceof PayloadTooLargeError || error instanceof BadRequestError) return error;
  const code = (error as { code?: unknown }).code;
  switch (code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return tooLarge(maxBytes);
    case 'FST_FILES_LIMIT':
    case 'FST_FIELDS_LIMIT':
    case 'FST_PARTS_LIMIT':
      return new BadRequestError(
        'The form carries one part, the export file; the options (source, dryRun, map, columns) go in the query string',
      );
    default:
      return undefined;
  }
}

function unreadableForm(error: unknown, maxBytes: number): BadRequestError | PayloadTooLargeError {
  return (
    formProblem(error, maxBytes) ??
    new BadRequestError(`The multipart/form-data body cannot be read: ${(error as Error).message.slice(0, 120)}`)
  );
}

/** The request's one file part, streamed to a temporary file; the form is read to its end. */
export async function formToFile(
  parts: AsyncIterable<MultipartFile | { type: 'field' }>,
  maxBytes: number,
): Promise<{ path: string; filename: string | undefined }> {
  let upload: { path: string; filename: string | undefined } | undefined;
  try {
    for await (const part of parts) {
      if (part.type !== 'file' || upload) throw formProblem({ code: 'FST_PARTS_LIMIT' }, maxBytes)!;
      const path = await streamToFile(part.file, maxBytes, 'The form\u2019s file is empty: choose the export file');
      upload = { path, filename: part.filename ? basename(part.filename).slice(0, 200) : undefined };
    }
  } catch (error) {
    if (upload) await removeUpload(upload.path);
    throw unreadableForm(error, maxBytes);
  }
  if (!upload) throw new BadRequestError('The form has no file: send the export as its one file part');
  return upload;
}
