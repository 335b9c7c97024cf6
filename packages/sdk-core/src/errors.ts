/** One problem found by the API's validation: a dotted path and what is wrong with it. */
export interface ApiErrorDetail {
  field: string;
  message: string;
}

/** The error body every Signpost API error carries. */
export interface ApiErrorBody {
  /** What went wrong, for people (the text may change). */
  error: string;
  /** What went wrong, for programs: a stable name such as `NotFound`, `Conflict`, `TooManyRequests`. */
  code?: string;
  details?: ApiErrorDetail[];
}

/**
 * The Signpost API answered with an error status (4xx or 5xx). Carries the HTTP status and the
 * parsed `{ error, code, details? }` body.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly body: ApiErrorBody;
  /** The server's stable error code (`NotFound`, `Conflict`, …): branch on this, not on the text. */
  readonly code: string | undefined;
  /** Milliseconds the server asked to wait (`Retry-After`), when it said. */
  readonly retryAfterMs: number | undefined;
  /** The server's `X-Request-Id`, useful when asking for support. */
  readonly requestId: string | undefined;

  constructor(status: number, body: ApiErrorBody, options: { retryAfterMs?: number; requestId?: string } = {}) {
    super(`Signpost API ${status}: ${body.error}`);
    this.status = status;
    this.body = body;
    this.code = typeof body.code === 'string' ? body.code : undefined;
    this.retryAfterMs = options.retryAfterMs;
    this.requestId = options.requestId;
  }
}

/** Stable codes of local SDK errors. */
export type SdkErrorCode =
  | 'network_error'
  | 'timeout'
  | 'aborted'
  | 'rate_limited'
  | 'invalid_response'
  | 'invalid_options'
  | 'queue_full'
  | 'internal';

/** Something went wrong on this side of the wire: no network, a timeout, a local limit, a bug. */
export class SdkError extends Error {
  override readonly name = 'SdkError';
  readonly code: SdkErrorCode;

  constructor(code: SdkErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(message);
    this.code = code;
    if (options.cause !== undefined) (this as { cause?: unknown }).cause = options.cause;
  }
}

/**
 * Whether sending the same request again later may succeed: network errors, timeouts, rate
 * limits and server faults (5xx). Other 4xx answers never become right by repeating them.
 */
export function isRetryableError(error: unknown): boolean {
  if (error instanceof ApiError) return error.status === 429 || error.status >= 500;
  if (error instanceof SdkError)
    return error.code === 'network_error' || error.code === 'timeout' || error.code === 'rate_limited';
  return false;
}
