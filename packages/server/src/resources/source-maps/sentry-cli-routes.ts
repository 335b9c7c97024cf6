/**
 * The endpoints `sentry-cli sourcemaps upload` talks to, so that it works pointed at Signpost
 * unchanged (`--url <signpost> --auth-token <personal access token> --org <any> --project
 * <project id>`): the chunk-upload options, the chunk upload itself (multipart, `file` or
 * `file_gzip` parts named by their SHA-1) and the artifact-bundle assemble, which joins the
 * chunks, reads the bundle's manifest and stores its files through the same upload as the
 * management API. Mounted under `/api/0` by management/sentry-cli-api.ts.
 */
import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { Type } from 'typebox';
import { BadRequestError } from '../../kernel/errors.ts';
import { requireAccount, requireProjectAccess } from '../../routing/management/access.ts';
import type { ManagementApp, ManagementDeps } from '../../routing/management/context.ts';
import { MAX_BUNDLE_BYTES } from './bundle.ts';
import { assembleArtifactBundle, storeChunks } from './chunked-upload.ts';

/** What GET chunk-upload tells sentry-cli: chunk and request sizes (MiB), one request at a time. */
export const CHUNK_SIZE = 8 * 1024 * 1024;
export const CHUNK_REQUEST_LIMIT = 32 * 1024 * 1024;
const CHUNKS_PER_REQUEST = 4;

const Sha1 = Type.String({ pattern: '^[0-9a-f]{40}$' });
const OrgParams = Type.Object({ org: Type.String({ minLength: 1, maxLength: 100 }) });
const AssembleBody = Type.Object({
  checksum: Sha1,
  chunks: Type.Array(Sha1, { maxItems: Math.ceil(MAX_BUNDLE_BYTES / CHUNK_SIZE) }),
  projects: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { minItems: 1, maxItems: 20 }),
  version: Type.Optional(Type.String({ maxLength: 200 })),
  dist: Type.Optional(Type.String({ maxLength: 64 })),
});

const sha1 = (bytes: Uint8Array) => createHash('sha1').update(bytes).digest('hex');

export async function sentryCliRoutes(app: ManagementApp, { db }: ManagementDeps): Promise<void> {
  app.get('/organizations/:org/chunk-upload/', { schema: { params: OrgParams } }, async (request) => {
    requireAccount(request);
    return {
      url: `/api/0/organizations/${encodeURIComponent(request.params.org)}/chunk-upload/`,
      chunkSize: CHUNK_SIZE,
      chunksPerRequest: CHUNKS_PER_REQUEST,
      maxFileSize: MAX_BUNDLE_BYTES,
      maxRequestSize: CHUNK_REQUEST_LIMIT,
      concurrency: 1,
      hashAlgorithm: 'sha1',
      compression: ['gzip'],
      accept: ['artifact_bundles'],
    };
  });

  app.post(
    '/organizations/:org/chunk-upload/',
    { schema: { params: OrgParams }, bodyLimit: CHUNK_REQUEST_LIMIT },
    async (request, reply) => {
      const account = requireAccount(request);
      const contentType = request.headers['content-type'] ?? '';
      let form: FormData;
      try {
        form = await new Response(new Uint8Array(request.body as Buffer), {
          headers: { 'content-type': contentType },
        }).formData();
      } catch {
        throw new BadRequestError('The body must be multipart/form-data with file or file_gzip parts');
      }
      const chunks: [string, Uint8Array][] = [];
      // getAll rather than entries(): the packages that type-check this file without the DOM's
      // iterable typings (the CLI's and dashboard's tests import the server) know only getAll.
      const parts = [
        ...form.getAll('file').map((value) => ['file', value] as const),
        ...form.getAll('file_gzip').map((value) => ['file_gzip', value] as const),
      ];
      for (const [field, value] of parts) {
        if (typeof value === 'string') continue;
        let bytes: Uint8Array = new Uint8Array(await value.arrayBuffer());
        if (field === 'file_gzip') {
          try {
            bytes = gunzipSync(bytes, { maxOutputLength: CHUNK_SIZE });
          } catch {
            throw new BadRequestError(`Chunk ${value.name} is not gzip of at most ${CHUNK_SIZE} bytes`);
          }
        }
        if (bytes.byteLength > CHUNK_SIZE)
          throw new BadRequestError(`Chunk ${value.name} is larger than ${CHUNK_SIZE} bytes`);
        if (sha1(bytes) !== value.name) throw new BadRequestError(`Chunk ${value.name} does not match its SHA-1`);
        chunks.push([value.name, bytes]);
      }
      if (chunks.length === 0) throw new BadRequestError('No file or file_gzip parts');
      await storeChunks(db, account.id, chunks);
      return reply.code(200).send();
    },
  );

  app.post(
    '/organizations/:org/artifactbundle/assemble/',
    { schema: { params: OrgParams, body: AssembleBody } },
    async (request) => {
      const account = requireAccount(request);
      // By hand: sentry-cli names the projects in the body (its paths carry an organisation only).
      for (const projectId of request.body.projects) await requireProjectAccess(request, projectId, 'admin');
      return assembleArtifactBundle(db, account.id, request.body);
    },
  );
}
