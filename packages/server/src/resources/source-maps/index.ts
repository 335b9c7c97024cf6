/**
 * Source maps (issue 31): uploaded maps and minified files per project, and the resolver that maps
 * minified Sentry frames to their original positions. What other resources and tests may import;
 * the event read path calls `resolveEventFrames(db, projectId, event)` (or `resolveFrames` with
 * `debugIdsFromDebugMeta(event.debug_meta)`).
 */
export {
  resolveFrames,
  resolveEventFrames,
  debugIdsFromDebugMeta,
  type SentryEventLike,
  type ResolveContext,
  type ResolvedFrame,
  type SentryFrame,
} from './resolve.ts';
export { uploadArtifacts, type Upload, type UploadFile } from './service.ts';
export { MAX_MINIFIED_BYTES, MAX_SOURCE_MAP_BYTES } from './content.ts';
