/**
 * The resolver: Sentry-shaped stack frames of minified JavaScript mapped to their original file,
 * line, column, function and context lines through the project's uploaded source maps.
 *
 * `resolveFrames` is pure over the database: it reads artifacts and changes nothing, so the event
 * read path (or ingest) may call it on any frames. Parsed maps and minified files are kept in a
 * process-wide LRU bounded by bytes, keyed by project and checksum (a content never changes under
 * its checksum, so the cache is never stale; a deleted artifact is no longer found by the lookup).
 */
import { AnyMap, originalPositionFor, sourceContentFor, type TraceMap } from '@jridgewell/trace-mapping';
import type { Queryable } from '../../db/database.ts';
import { releaseSpellings } from '../../kernel/release.ts';
import { ByteLru } from './cache.ts';
import { decompress, normaliseDebugId } from './content.ts';
import { candidateNames, displayName, resolveRelative } from './names.ts';
import { type ArtifactRow, artifactByDebugId, artifactByNames, blobContent } from './store.ts';

/** A frame as Sentry SDKs send it (`exception.values[].stacktrace.frames[]`, oldest call first). */
export interface SentryFrame {
  filename?: string | undefined;
  abs_path?: string | undefined;
  function?: string | undefined;
  module?: string | undefined;
  lineno?: number | undefined;
  colno?: number | undefined;
  in_app?: boolean | undefined;
  debug_id?: string | undefined;
  pre_context?: string[] | undefined;
  context_line?: string | undefined;
  post_context?: string[] | undefined;
}

export interface ResolvedFrame extends SentryFrame {
  /** True when a source map gave the original position. */
  mapped: boolean;
  /** The source map's artifact name, when mapped. */
  source_map?: string | undefined;
  /** The frame as it was, when mapped. */
  minified?: { filename?: string; abs_path?: string; function?: string; lineno?: number; colno?: number } | undefined;
}

export interface ResolveContext {
  release?: string | undefined;
  dist?: string | undefined;
  /** File URL → debug ID, from the event's `debug_meta.images` (see debugIdsFromDebugMeta). */
  debugIdsByFile?: Record<string, string> | undefined;
}

/** Lines of context on each side of the frame's line, as Sentry shows them. */
export const CONTEXT_LINES = 5;
/** A context line longer than this is cut around the column. */
const MAX_LINE = 300;
/** Bytes of parsed maps and minified files kept in memory (weights: twice a map's text, a file's text). */
export const CACHE_BYTES = 64 * 1024 * 1024;

const cache = new ByteLru<LoadedMap | LoadedText>(CACHE_BYTES);

interface LoadedMap {
  map: TraceMap;
  /** Per source index, the content's lines (split on first use). */
  lines: Map<string, string[]>;
}
interface LoadedText {
  text: string;
  lineStarts: number[];
  /** Minified name → offsets of its declarations, found once per name. */
  declarations: Map<string, number[]>;
}

/** `debug_meta.images` of a Sentry event → file URL to debug ID (only `type: 'sourcemap'` images). */
export function debugIdsFromDebugMeta(debugMeta: unknown): Record<string, string> {
  const result: Record<string, string> = {};
  const images = (debugMeta as { images?: unknown } | undefined)?.images;
  if (!Array.isArray(images)) return result;
  for (const image of images) {
    if (typeof image !== 'object' || image === null) continue;
    const { type, code_file: file, debug_id: id } = image as Record<string, unknown>;
    const debugId = normaliseDebugId(id);
    if (type === 'sourcemap' && typeof file === 'string' && debugId) result[file] = debugId;
  }
  return result;
}

interface FileArtifacts {
  map: ArtifactRow;
  minified: ArtifactRow | undefined;
}

/** Finds the map (and minified file) for a file URL: by debug ID first, then by release and name. */
async function findArtifacts(
  db: Queryable,
  projectId: string,
  context: ResolveContext,
  url: string,
  frameDebugId: string | undefined,
): Promise<FileArtifacts | undefined> {
  const debugId = normaliseDebugId(context.debugIdsByFile?.[url] ?? frameDebugId);
  if (debugId) {
    const map = await artifactByDebugId(db, projectId, debugId, 'source_map');
    if (map) return { map, minified: await artifactByDebugId(db, projectId, debugId, 'minified_source') };
  }
  if (context.release === undefined || context.release === '') return undefined;
  const release = releaseSpellings(context.release);
  const dist = context.dist ?? '';
  const names = candidateNames(url);
  const minified = await artifactByNames(db, projectId, release, dist, names);
  if (minified?.kind === 'minified_source') {
    if (minified.debug_id) {
      const map = await artifactByDebugId(db, projectId, minified.debug_id, 'source_map');
      if (map) return { map, minified };
    }
    if (minified.source_map_url) {
      const mapName = resolveRelative(minified.source_map_url, minified.name);
      const map = await artifactByNames(db, projectId, release, dist, candidateNames(mapName));
      if (map?.kind === 'source_map') return { map, minified };
    }
  }
  const map = await artifactByNames(
    db,
    projectId,
    release,
    dist,
    names.map((name) => `${name.replace(/\?.*$/, '')}.map`),
  );
  if (map?.kind === 'source_map') return { map, minified: minified?.kind === 'minified_source' ? minified : undefined };
  return undefined;
}

async function content(db: Queryable, projectId: string, artifact: ArtifactRow): Promise<string | undefined> {
  const bytes = await blobContent(db, projectId, artifact.checksum);
  return bytes ? decompress(bytes) : undefined;
}

async function loadMap(db: Queryable, projectId: string, artifact: ArtifactRow): Promise<LoadedMap | undefined> {
  const key = `map:${projectId}:${artifact.checksum}`;
  const cached = cache.get(key) as LoadedMap | undefined;
  if (cached) return cached;
  const text = await content(db, projectId, artifact);
  if (text === undefined) return undefined;
  let loaded: LoadedMap;
  try {
    loaded = { map: new AnyMap(text, artifact.name), lines: new Map() };
  } catch {
    return undefined;
  }
  cache.set(key, loaded, text.length * 2);
  return loaded;
}

async function loadText(db: Queryable, projectId: string, artifact: ArtifactRow): Promise<LoadedText | undefined> {
  const key = `text:${projectId}:${artifact.checksum}`;
  const cached = cache.get(key) as LoadedText | undefined;
  if (cached) return cached;
  const text = await content(db, projectId, artifact);
  if (text === undefined) return undefined;
  const lineStarts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  const loaded = { text, lineStarts, declarations: new Map<string, number[]>() };
  cache.set(key, loaded, text.length);
  return loaded;
}

const IDENTIFIER = /[A-Za-z_$][\w$]*/y;

function identifierAt(line: string | undefined, column: number): string | undefined {
  if (line === undefined) return undefined;
  IDENTIFIER.lastIndex = column;
  return IDENTIFIER.exec(line)?.[0];
}

function sourceLines(loaded: LoadedMap, source: string): string[] | undefined {
  let lines = loaded.lines.get(source);
  if (!lines) {
    const text = sourceContentFor(loaded.map, source);
    if (text === null) return undefined;
    lines = text.split(/\r?\n/);
    loaded.lines.set(source, lines);
  }
  return lines;
}

function clip(line: string, column: number): string {
  if (line.length <= MAX_LINE) return line;
  const start = Math.max(0, Math.min(column - MAX_LINE / 2, line.length - MAX_LINE));
  return line.slice(start, start + MAX_LINE);
}

/** The original name of the token at a generated position: the map's `names`, else the source's identifier. */
function originalNameAt(loaded: LoadedMap, line: number, column: number): string | undefined {
  const position = originalPositionFor(loaded.map, { line, column });
  if (position.source === null) return undefined;
  if (position.name) return position.name;
  return identifierAt(sourceLines(loaded, position.source)?.[position.line - 1], position.column);
}

/** The minified name a V8 frame's function carries (`HTMLButtonElement.ps` → `ps`). */
function minifiedFunctionName(name: string | undefined): string | undefined {
  const last = name
    ?.replace(/^(async|new) /, '')
    .split('.')
    .pop();
  return last && /^[A-Za-z_$][\w$]*$/.test(last) && last !== 'anonymous' ? last : undefined;
}

function offsetToPosition(text: LoadedText, offset: number): { line: number; column: number } {
  let low = 0;
  let high = text.lineStarts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (text.lineStarts[middle]! <= offset) low = middle;
    else high = middle - 1;
  }
  return { line: low + 1, column: offset - text.lineStarts[low]! };
}

/**
 * The original name of the function a frame runs in, read through the minified file:
 * 1. Sentry's way: the caller's frame points at the call; when the minified identifier there is
 *    this frame's minified function name, the map's name for that token is the original one.
 * 2. Else the minified file's declaration of that name nearest before the frame's position
 *    (`function ps(`, `ps=function`, `ps=(…)=>`, a method `ps(…){`), mapped the same way.
 */
function originalFunctionName(
  frame: SentryFrame,
  caller: { frame: SentryFrame; loaded: LoadedFile } | undefined,
  loaded: LoadedFile,
): string | undefined {
  const minifiedName = minifiedFunctionName(frame.function);
  if (!minifiedName) return undefined;
  if (caller?.loaded.text && caller.frame.lineno && caller.frame.colno) {
    const { text, map } = caller.loaded;
    const line = caller.frame.lineno;
    const column = caller.frame.colno - 1;
    const start = text.lineStarts[line - 1];
    if (start !== undefined) {
      IDENTIFIER.lastIndex = start + column;
      if (IDENTIFIER.exec(text.text)?.[0] === minifiedName) {
        const name = originalNameAt(map, line, column);
        if (name) return name;
      }
    }
  }
  if (!loaded.text || !frame.lineno || !frame.colno) return undefined;
  const { text } = loaded;
  const frameOffset = (text.lineStarts[frame.lineno - 1] ?? 0) + frame.colno - 1;
  let best: number | undefined;
  for (const offset of declarationsOf(text, minifiedName)) {
    if (offset > frameOffset) break;
    best = offset;
  }
  if (best === undefined) return undefined;
  const position = offsetToPosition(text, best);
  return originalNameAt(loaded.map, position.line, position.column);
}

/** Where the minified file declares `name` (`function n(`, `n=function`, `n=(…)=>`, a method `n(…){`). */
function declarationsOf(text: LoadedText, name: string): number[] {
  let offsets = text.declarations.get(name);
  if (offsets) return offsets;
  const escaped = name.replace(/\$/g, '\\$');
  const declaration = new RegExp(
    `(?:function\\s*\\*?\\s*(${escaped})\\s*\\()|(?:(?<![\\w$.])(${escaped})\\s*=\\s*(?:async\\s*)?(?:function\\b|\\(|[A-Za-z_$][\\w$]*\\s*=>))|(?:[{},;]\\s*(?:async\\s+)?(${escaped})\\s*\\([^()]*\\)\\s*\\{)`,
    'g',
  );
  offsets = [];
  for (const match of text.text.matchAll(declaration)) {
    const group = match[1] ?? match[2] ?? match[3]!;
    offsets.push(match.index + match[0].indexOf(group, match[0].startsWith('function') ? 8 : 0));
  }
  text.declarations.set(name, offsets);
  return offsets;
}

interface LoadedFile {
  artifacts: FileArtifacts;
  map: LoadedMap;
  text: LoadedText | undefined;
}

/**
 * Maps each frame whose file has a source map (by debug ID, or by release, dist and name) to its
 * original position, function name and context lines; other frames come back unchanged with
 * `mapped: false`. Frames are in Sentry's order (oldest call first).
 */
export async function resolveFrames(
  db: Queryable,
  projectId: string,
  context: ResolveContext,
  frames: readonly SentryFrame[],
): Promise<ResolvedFrame[]> {
  const files = new Map<string, Promise<LoadedFile | undefined>>();
  const load = (frame: SentryFrame): Promise<LoadedFile | undefined> => {
    const url = frame.abs_path ?? frame.filename;
    if (!url || !frame.lineno || !frame.colno) return Promise.resolve(undefined);
    const key = `${url}\n${frame.debug_id ?? ''}`;
    let pending = files.get(key);
    if (!pending) {
      pending = (async () => {
        const artifacts = await findArtifacts(db, projectId, context, url, frame.debug_id);
        if (!artifacts) return undefined;
        const map = await loadMap(db, projectId, artifacts.map);
        if (!map) return undefined;
        const text = artifacts.minified ? await loadText(db, projectId, artifacts.minified) : undefined;
        return { artifacts, map, text };
      })();
      files.set(key, pending);
    }
    return pending;
  };
  const loaded = await Promise.all(frames.map(load));
  return frames.map((frame, index) => {
    const file = loaded[index];
    if (!file || !frame.lineno || !frame.colno) return { ...frame, mapped: false };
    const position = originalPositionFor(file.map.map, { line: frame.lineno, column: frame.colno - 1 });
    if (position.source === null) return { ...frame, mapped: false };
    const callerFile = index > 0 ? loaded[index - 1] : undefined;
    const caller = callerFile ? { frame: frames[index - 1]!, loaded: callerFile } : undefined;
    const functionName = originalFunctionName(frame, caller, file) ?? frame.function;
    const sourceIndex = file.map.map.resolvedSources.indexOf(position.source);
    const rawSource = sourceIndex >= 0 ? (file.map.map.sources[sourceIndex] ?? position.source) : position.source;
    const lines = sourceLines(file.map, position.source);
    const at = position.line - 1;
    const resolved: ResolvedFrame = {
      ...frame,
      filename: displayName(rawSource),
      abs_path: position.source,
      function: functionName,
      lineno: position.line,
      colno: position.column + 1,
      in_app: /(^|\/)node_modules\//.test(rawSource) ? false : (frame.in_app ?? true),
      mapped: true,
      source_map: file.artifacts.map.name,
      minified: minifiedOf(frame),
    };
    if (lines && at < lines.length) {
      resolved.pre_context = lines.slice(Math.max(0, at - CONTEXT_LINES), at).map((line) => clip(line, 0));
      resolved.context_line = clip(lines[at]!, position.column);
      resolved.post_context = lines.slice(at + 1, at + 1 + CONTEXT_LINES).map((line) => clip(line, 0));
    } else {
      delete resolved.pre_context;
      delete resolved.context_line;
      delete resolved.post_context;
    }
    return resolved;
  });
}

function minifiedOf(frame: SentryFrame): ResolvedFrame['minified'] {
  const minified: NonNullable<ResolvedFrame['minified']> = {};
  if (frame.filename !== undefined) minified.filename = frame.filename;
  if (frame.abs_path !== undefined) minified.abs_path = frame.abs_path;
  if (frame.function !== undefined) minified.function = frame.function;
  if (frame.lineno !== undefined) minified.lineno = frame.lineno;
  if (frame.colno !== undefined) minified.colno = frame.colno;
  return minified;
}

/** For tests and metrics: what the map cache holds. */
export function cacheStats(): { entries: number; bytes: number; maxBytes: number } {
  return { entries: cache.size, bytes: cache.bytes, maxBytes: cache.maxBytes };
}

/** The parts of a Sentry event the resolver reads. */
export interface SentryEventLike {
  release?: unknown;
  dist?: unknown;
  debug_meta?: unknown;
  exception?: { values?: Array<{ stacktrace?: { frames?: SentryFrame[] } | undefined }> } | undefined;
}

/**
 * Every exception's frames of a Sentry event resolved with the event's own release, dist and
 * `debug_meta`: one array of frames per `exception.values[]` entry (empty without a stack). For
 * the event read path, which calls it when an event is shown (or stored).
 */
export async function resolveEventFrames(
  db: Queryable,
  projectId: string,
  event: SentryEventLike,
): Promise<ResolvedFrame[][]> {
  const context: ResolveContext = {
    release: typeof event.release === 'string' ? event.release : undefined,
    dist: typeof event.dist === 'string' ? event.dist : undefined,
    debugIdsByFile: debugIdsFromDebugMeta(event.debug_meta),
  };
  const values = Array.isArray(event.exception?.values) ? event.exception.values : [];
  return Promise.all(
    values.map((value) => {
      const frames = value?.stacktrace?.frames;
      return Array.isArray(frames) ? resolveFrames(db, projectId, context, frames) : Promise.resolve([]);
    }),
  );
}
