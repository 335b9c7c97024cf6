/**
 * Pure helpers on uploaded files: checksums, compression, the debug ID and sourceMappingURL a
 * bundle or map carries, and the check that a source map is one. No database here.
 */
import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { AnyMap, decodedMappings } from '@jridgewell/trace-mapping';

/** Largest source map accepted, uncompressed (bigger ones are refused with a 413-like 400). */
export const MAX_SOURCE_MAP_BYTES = 20 * 1024 * 1024;
/** Largest minified file accepted, uncompressed. */
export const MAX_MINIFIED_BYTES = 10 * 1024 * 1024;
/** Files in one upload request, and the request's body limit (JSON, the files as text). */
export const MAX_FILES_PER_UPLOAD = 20;
export const UPLOAD_BODY_LIMIT = 40 * 1024 * 1024;

export type ArtifactKind = 'source_map' | 'minified_source';

export function checksumOf(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

export function compress(text: string): Uint8Array {
  return gzipSync(Buffer.from(text, 'utf8'), { level: 6 });
}

export function decompress(bytes: Uint8Array): string {
  return gunzipSync(bytes).toString('utf8');
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * A debug ID in its canonical form (lower-case UUID with dashes), or undefined when the value is
 * not one. Sentry's tools write UUIDs; some write 32 hex digits, some append `-0` style suffixes.
 */
export function normaliseDebugId(raw: unknown): string | undefined {
  if (typeof raw !== 'string') return undefined;
  let value = raw.trim().toLowerCase();
  if (/^[0-9a-f]{32}/.test(value)) {
    value = `${value.slice(0, 8)}-${value.slice(8, 12)}-${value.slice(12, 16)}-${value.slice(16, 20)}-${value.slice(20, 32)}`;
  } else {
    value = value.slice(0, 36);
  }
  return UUID.test(value) ? value : undefined;
}

/** The last `//# <name>=value` comment of a JavaScript file (sourceMappingURL, debugId). */
function lastComment(text: string, name: string): string | undefined {
  const tail = text.length > 4096 ? text.slice(-4096) : text;
  const pattern = new RegExp(`//[#@]\\s*${name}=(\\S+)\\s*$`, 'gm');
  let found: string | undefined;
  for (const match of tail.matchAll(pattern)) found = match[1];
  return found;
}

export const sourceMappingUrlOf = (minified: string): string | undefined => {
  const url = lastComment(minified, 'sourceMappingURL');
  return url && !url.startsWith('data:') ? url : undefined;
};
export const debugIdOfMinified = (minified: string): string | undefined =>
  normaliseDebugId(lastComment(minified, 'debugId'));

export interface CheckedSourceMap {
  debugId: string | undefined;
}

/**
 * Checks that `text` is a source map (version 3, mappings or sections that trace-mapping reads)
 * and returns its debug ID (`debugId` or `debug_id`); throws a message for the caller's 400.
 */
export function checkSourceMap(text: string): CheckedSourceMap {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error('is not JSON, so not a source map');
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new Error('is not a source map object');
  const map = json as Record<string, unknown>;
  if (map['version'] !== 3) throw new Error('is not a version 3 source map');
  if (typeof map['mappings'] !== 'string' && !Array.isArray(map['sections'])) {
    throw new Error('has neither mappings nor sections');
  }
  if (typeof map['mappings'] === 'string' && !/^[A-Za-z0-9+/,;]*$/.test(map['mappings'])) {
    throw new Error('has mappings that are not Base64 VLQ');
  }
  if (typeof map['mappings'] === 'string' && !Array.isArray(map['sources'])) throw new Error('has no sources');
  try {
    // Decoding every line finds a broken mappings string now rather than at the first event.
    decodedMappings(new AnyMap(map as never));
  } catch (error) {
    throw new Error(`cannot be read as a source map (${(error as Error).message})`);
  }
  return { debugId: normaliseDebugId(map['debugId'] ?? map['debug_id']) };
}

/** The kind of an uploaded file by its name, when the upload does not say. */
export function kindOfName(name: string): ArtifactKind {
  return /\.map(\?.*)?$/.test(name) ? 'source_map' : 'minified_source';
}
