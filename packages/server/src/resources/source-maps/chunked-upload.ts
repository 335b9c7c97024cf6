/**
 * sentry-cli's chunked upload as use cases: chunks kept per account until an artifact bundle made
 * of them is assembled, then the bundle's files stored through the same upload as the management
 * API (`service.ts`).
 */
import { createHash } from 'node:crypto';
import type { Database } from '../../db/database.ts';
import { BadRequestError } from '../../kernel/errors.ts';
import { MAX_BUNDLE_BYTES, readArtifactBundle } from './bundle.ts';
import { uploadArtifacts } from './service.ts';
import {
  bundleAssembled,
  chunkContents,
  dropChunks,
  markBundleAssembled,
  presentChunks,
  putChunk,
} from './store-bundles.ts';

/** Keeps checked chunks of an upload (named by their SHA-1) for the account until a bundle assembles them. */
export async function storeChunks(db: Database, accountId: string, chunks: [string, Uint8Array][]): Promise<void> {
  await db.transaction(async (tx) => {
    for (const [checksum, bytes] of chunks) await putChunk(tx, accountId, checksum, bytes);
  });
}

export interface AssembleRequest {
  checksum: string;
  chunks: string[];
  projects: string[];
  version?: string | undefined;
  dist?: string | undefined;
}

export interface AssembleState {
  state: 'ok' | 'not_found';
  missingChunks: string[];
  detail: null;
}

/**
 * Joins an artifact bundle from the account's chunks and stores its files in every project named
 * (through the same upload as the management API); 'not_found' with the chunks still missing.
 * Assembling a bundle again answers 'ok' at once.
 */
export async function assembleArtifactBundle(
  db: Database,
  accountId: string,
  request: AssembleRequest,
): Promise<AssembleState> {
  const { checksum, chunks, projects, version, dist } = request;
  const assembled = await Promise.all(projects.map((projectId) => bundleAssembled(db, projectId, checksum)));
  if (assembled.every(Boolean)) return { state: 'ok', missingChunks: [], detail: null };
  const present = await presentChunks(db, accountId, chunks);
  const missing = chunks.filter((chunk) => !present.has(chunk));
  if (missing.length > 0) return { state: 'not_found', missingChunks: [...new Set(missing)], detail: null };

  const contents = await chunkContents(db, accountId, chunks);
  const zip = Buffer.concat(chunks.map((chunk) => contents.get(chunk)!));
  if (zip.byteLength > MAX_BUNDLE_BYTES)
    throw new BadRequestError(`The bundle is larger than ${MAX_BUNDLE_BYTES} bytes`);
  if (createHash('sha1').update(zip).digest('hex') !== checksum)
    throw new BadRequestError('The chunks do not join into the checksum given');
  let bundle: ReturnType<typeof readArtifactBundle>;
  try {
    bundle = readArtifactBundle(zip);
  } catch (error) {
    throw new BadRequestError(`The artifact bundle ${(error as Error).message}`);
  }
  if (bundle.files.length === 0)
    throw new BadRequestError('The artifact bundle holds no source maps or minified files');
  for (const projectId of projects) {
    await uploadArtifacts(db, projectId, {
      release: version ?? bundle.release,
      dist: dist ?? bundle.dist,
      files: bundle.files,
    });
  }
  await db.transaction(async (tx) => {
    for (const projectId of projects) await markBundleAssembled(tx, projectId, checksum);
    await dropChunks(tx, accountId, chunks);
  });
  return { state: 'ok', missingChunks: [], detail: null };
}
