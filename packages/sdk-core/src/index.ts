/**
 * @signpost/sdk-core: the one transport every Signpost SDK uses. Runs in browsers and Node.js 18+;
 * no runtime dependencies, nothing Node-only.
 */
export { createTransport, transportFor, DEFAULT_BASE_URL, KEEPALIVE_BUDGET_BYTES } from './transport.js';
export type {
  FetchLike,
  RequestOptions,
  SdkTransportOptions,
  Transport,
  TransportOptions,
  TransportResponse,
  TransportStats,
} from './transport.js';
export { ApiError, SdkError, isRetryableError } from './errors.js';
export type { ApiErrorBody, ApiErrorDetail, SdkErrorCode } from './errors.js';
export { createBatcher } from './batcher.js';
export type { Batcher, BatcherOptions, FlushOptions } from './batcher.js';
export { createOfflineQueue } from './offline.js';
export type { OfflineQueue, OfflineQueueOptions, QueuedRequest, StorageLike } from './offline.js';
export { createReporter, guard } from './report.js';
export type { ErrorHandler } from './report.js';
export { backoffDelay, parseRetryAfter, sleep, unrefTimer } from './backoff.js';
export { onPageHide, onOnline, onProcessExit, isBrowser, clip } from './lifecycle.js';
export type { Unsubscribe } from './lifecycle.js';

/** The version of this package. */
export const SDK_CORE_VERSION = '0.1.0';
export { toJsonSafe } from './json.js';
export type { JsonSafeOptions } from './json.js';
