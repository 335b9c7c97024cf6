/**
 * sentry-cli's artifact bundle: a zip with `manifest.json` naming each file's URL, type and
 * headers (`debug-id`, `sourcemap`), read into the files an upload takes. Pure; no database.
 */
import type * as Fflate from 'fflate';
import { lazyModule } from '../../kernel/lazy-module.ts';
import { MAX_MINIFIED_BYTES, MAX_SOURCE_MAP_BYTES } from './content.ts';
import type { UploadFile } from './service.ts';

// Loaded on first use (an upload, an import, a backup), not at start.
const fflate = lazyModule<typeof Fflate>('fflate', import.meta.url);

/** Largest bundle accepted, zipped and unzipped (all files together). */
export const MAX_BUNDLE_BYTES = 64 * 1024 * 1024;
export const MAX_BUNDLE_UNZIPPED_BYTES = 256 * 1024 * 1024;

interface ManifestEntry {
  url?: unknown;
  type?: unknown;
  headers?: Record<string, unknown>;
}

export interface ArtifactBundle {
  release: string | undefined;
  dist: string | undefined;
  files: UploadFile[];
  /** Files of other types (`source`, `indexed_ram_bundle`), not stored. */
  skipped: number;
}

function header(entry: ManifestEntry, name: string): string | undefined {
  for (const [key, value] of Object.entries(entry.headers ?? {})) {
    if (key.toLowerCase() === name && typeof value === 'string') return value;
  }
  return undefined;
}

/** Reads a bundle; throws a message for the caller's 400 when it is not one. */
export function readArtifactBundle(zip: Uint8Array): ArtifactBundle {
  let total = 0;
  let entries: Record<string, Uint8Array>;
  try {
    entries = fflate().unzipSync(zip, {
      filter: (file) => {
        const limit = file.name === 'manifest.json' ? 1024 * 1024 : Math.max(MAX_SOURCE_MAP_BYTES, MAX_MINIFIED_BYTES);
        if (file.originalSize > limit) throw new Error(`${file.name} is larger than ${limit} bytes`);
        total += file.originalSize;
        if (total > MAX_BUNDLE_UNZIPPED_BYTES)
          throw new Error(`unzips to more than ${MAX_BUNDLE_UNZIPPED_BYTES} bytes`);
        return true;
      },
    });
  } catch (error) {
    throw new Error(`is not a readable zip (${(error as Error).message})`);
  }
  const manifestBytes = entries['manifest.json'];
  if (!manifestBytes) throw new Error('has no manifest.json');
  let manifest: { files?: Record<string, ManifestEntry>; release?: unknown; dist?: unknown };
  try {
    manifest = JSON.parse(new TextDecoder().decode(manifestBytes));
  } catch {
    throw new Error('has a manifest.json that is not JSON');
  }
  if (typeof manifest.files !== 'object' || manifest.files === null) throw new Error('has a manifest without files');
  const decoder = new TextDecoder('utf-8', { fatal: false });
  const files: UploadFile[] = [];
  let skipped = 0;
  for (const [path, entry] of Object.entries(manifest.files)) {
    const type = entry.type;
    if (type !== 'minified_source' && type !== 'source_map') {
      skipped++;
      continue;
    }
    const bytes = entries[path];
    if (!bytes) throw new Error(`lacks ${path}, which its manifest lists`);
    const url = typeof entry.url === 'string' && entry.url !== '' ? entry.url : path;
    const debugId = header(entry, 'debug-id');
    const sourceMap = header(entry, 'sourcemap') ?? header(entry, 'x-sourcemap');
    files.push({
      name: url,
      kind: type,
      content: decoder.decode(bytes),
      ...(debugId ? { debugId } : {}),
      ...(sourceMap ? { sourceMapUrl: sourceMap } : {}),
    });
  }
  return {
    release: typeof manifest.release === 'string' ? manifest.release : undefined,
    dist: typeof manifest.dist === 'string' ? manifest.dist : undefined,
    files,
    skipped,
  };
}
