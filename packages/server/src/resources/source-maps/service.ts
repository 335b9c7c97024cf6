/**
 * Source maps' use cases: uploading source maps and minified files (checks, debug IDs,
 * compression, then the store) and deleting them. sentry-cli's chunked bundles: `chunked-upload.ts`.
 */
import type { Database } from '../../db/database.ts';
import { BadRequestError, HttpError } from '../../kernel/errors.ts';
import {
  type ArtifactKind,
  checkSourceMap,
  checksumOf,
  compress,
  debugIdOfMinified,
  kindOfName,
  MAX_MINIFIED_BYTES,
  MAX_SOURCE_MAP_BYTES,
  normaliseDebugId,
  sourceMappingUrlOf,
} from './content.ts';
import { type ArtifactRow, deleteArtifact, deleteReleaseArtifacts, type NewArtifact, putArtifacts } from './store.ts';

/** A release or dist as Sentry accepts it (the API's schema says the same). */
const NAME = /^(?!\.{1,2}$)[^\s/\\]{1,200}$/;

export interface UploadFile {
  name: string;
  content: string;
  kind?: ArtifactKind | undefined;
  debugId?: string | undefined;
  /** A minified file's source map URL when not in the file (sentry-cli's `Sourcemap` header). */
  sourceMapUrl?: string | undefined;
}

export interface Upload {
  release?: string | undefined;
  dist?: string | undefined;
  files: UploadFile[];
}

/**
 * Checks every file first (a source map must be one; sizes; a debug ID or a release to find it
 * by), then stores them all in one transaction: a bad file stores nothing.
 */
export async function uploadArtifacts(db: Database, projectId: string, upload: Upload): Promise<ArtifactRow[]> {
  const release = upload.release ?? '';
  const dist = upload.dist ?? '';
  for (const [field, value] of [
    ['release', release],
    ['dist', dist],
  ] as const) {
    if (value !== '' && !NAME.test(value)) {
      throw new BadRequestError(`Invalid field ${field}: ${value} has whitespace or slashes, or is . or ..`, [
        { field, message: 'no whitespace or slashes, not . or .., at most 200 characters' },
      ]);
    }
  }
  if (dist !== '' && release === '') {
    throw new BadRequestError('Invalid field dist: a dist needs a release', [
      { field: 'dist', message: 'needs a release' },
    ]);
  }
  const prepared: NewArtifact[] = upload.files.map((file, index) => {
    const field = `files/${index}`;
    const kind = file.kind ?? kindOfName(file.name);
    const size = Buffer.byteLength(file.content, 'utf8');
    const limit = kind === 'source_map' ? MAX_SOURCE_MAP_BYTES : MAX_MINIFIED_BYTES;
    if (size > limit) {
      throw new HttpError(
        413,
        'PayloadTooLarge',
        `${file.name} is ${size} bytes; a ${kind === 'source_map' ? 'source map' : 'minified file'} may have at most ${limit}`,
        {},
        [{ field: `${field}/content`, message: `at most ${limit} bytes` }],
      );
    }
    let debugId: string | undefined;
    if (file.debugId !== undefined) {
      debugId = normaliseDebugId(file.debugId);
      if (!debugId) {
        throw new BadRequestError(`Invalid field ${field}/debugId: must be a UUID`, [
          { field: `${field}/debugId`, message: 'must be a UUID' },
        ]);
      }
    }
    let sourceMapUrl: string | null = null;
    if (kind === 'source_map') {
      try {
        debugId ??= checkSourceMap(file.content).debugId;
      } catch (error) {
        throw new BadRequestError(`Invalid field ${field}/content: ${file.name} ${(error as Error).message}`, [
          { field: `${field}/content`, message: (error as Error).message },
        ]);
      }
    } else {
      debugId ??= debugIdOfMinified(file.content);
      sourceMapUrl = file.sourceMapUrl ?? sourceMappingUrlOf(file.content) ?? null;
    }
    if (release === '' && !debugId) {
      throw new BadRequestError(
        `Invalid field ${field}: ${file.name} has no debug ID, so it needs a release to be found by`,
        [{ field: 'release', message: 'required for files without a debug ID' }],
      );
    }
    return {
      release,
      dist,
      name: file.name,
      kind,
      debugId: debugId ?? null,
      sourceMapUrl,
      checksum: checksumOf(file.content),
      size,
      content: compress(file.content),
    };
  });
  const names = new Set<string>();
  for (const [index, file] of prepared.entries()) {
    if (names.has(file.name)) {
      throw new BadRequestError(`Invalid field files/${index}/name: ${file.name} is given twice`, [
        { field: `files/${index}/name`, message: 'given twice' },
      ]);
    }
    names.add(file.name);
  }
  return db.transaction((tx) => putArtifacts(tx, projectId, prepared));
}

/** Deletes one artifact; false when the project has no such artifact. */
export function deleteSourceMap(db: Database, projectId: string, artifactId: string): Promise<boolean> {
  return db.transaction((tx) => deleteArtifact(tx, projectId, artifactId));
}

/** Deletes every artifact of a release (and dist); how many. */
export function deleteReleaseSourceMaps(
  db: Database,
  projectId: string,
  release: string,
  dist: string | undefined,
): Promise<number> {
  return db.transaction((tx) => deleteReleaseArtifacts(tx, projectId, release, dist));
}
