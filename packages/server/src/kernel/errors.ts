/**
 * Errors that become HTTP responses: one class per kind, each defined here once, serialised by
 * http/error-handler.ts as `{ error, code, details? }`. `error` is the text for people and may
 * change; `code` is the stable name clients branch on (`NotFound`, `Conflict`, `SeatLimit`, …).
 */
export interface FieldProblem {
  field: string;
  message: string;
}

export class HttpError extends Error {
  readonly statusCode: number;
  readonly code: string;
  readonly headers: Record<string, string>;
  readonly details: FieldProblem[] | undefined;

  constructor(
    statusCode: number,
    code: string,
    message: string,
    headers: Record<string, string> = {},
    details?: FieldProblem[],
  ) {
    super(message);
    this.statusCode = statusCode;
    this.code = code;
    this.headers = headers;
    this.details = details;
    this.name = code;
  }
}

export class BadRequestError extends HttpError {
  constructor(message: string, details?: FieldProblem[]) {
    super(400, 'BadRequest', message, {}, details);
  }
}

export class UnauthorizedError extends HttpError {
  constructor(message: 'Missing API key' | 'Invalid API key' | string) {
    super(401, 'Unauthorized', message);
  }
}

export class ForbiddenError extends HttpError {
  constructor(message: string) {
    super(403, 'Forbidden', message);
  }
}

/** Missing and hidden items answer with this one error, so the two cannot be told apart. */
export class NotFoundError extends HttpError {
  constructor() {
    super(404, 'NotFound', 'Not found');
  }
}

export class TooManyRequestsError extends HttpError {
  constructor(message: string, headers: Record<string, string>) {
    super(429, 'TooManyRequests', message, headers);
  }
}

/** 409: the request clashes with what exists (a duplicate key, version or slug). */
export class ConflictError extends HttpError {
  constructor(message: string) {
    super(409, 'Conflict', message);
  }
}

/** 413: the body, or what it decompresses to, is larger than the route takes. */
export class PayloadTooLargeError extends HttpError {
  constructor(message: string) {
    super(413, 'PayloadTooLarge', message);
  }
}

/** 415: a content type or encoding the route does not read. */
export class UnsupportedMediaTypeError extends HttpError {
  constructor(message: string) {
    super(415, 'UnsupportedMediaType', message);
  }
}

/** 502: a service the request depends on (the identity provider) failed. */
export class BadGatewayError extends HttpError {
  constructor(message: string) {
    super(502, 'BadGateway', message);
  }
}

/** 503: the request was saved or refused because an e-mail could not be sent. */
export class MailFailedError extends HttpError {
  constructor(message: string) {
    super(503, 'MailFailed', message);
  }
}

/** 403: the team has no free seat for another member (teams/seats). */
export class SeatLimitError extends HttpError {
  constructor(message: string) {
    super(403, 'SeatLimit', message);
  }
}

/**
 * 503: the database cannot take the request now: the connection to PostgreSQL is lost or refused,
 * it is restarting, SQLite's disk is full or its file locked past the busy timeout. Nothing of
 * the request was stored; the client may send it again after Retry-After. `storageFull` tells an
 * upload's 507 apart (http/error-handler.ts).
 */
export class DatabaseUnavailableError extends HttpError {
  readonly storageFull: boolean;
  constructor(options: { storageFull?: boolean; cause?: unknown } = {}) {
    super(
      503,
      'Unavailable',
      options.storageFull
        ? 'The server cannot store data now (its disk is full); try again later'
        : 'The database is unavailable; try again shortly',
      { 'retry-after': options.storageFull ? '30' : '5' },
    );
    this.storageFull = options.storageFull ?? false;
    if (options.cause !== undefined) this.cause = options.cause;
  }
}

/**
 * A 400 whose body the product spec fixes to exactly `{ error }` (POST /features with an invalid
 * `type`): sent without `code`, so the answer stays byte-for-byte the spec's.
 */
export class SpecFixedBadRequestError extends HttpError {
  constructor(message: string) {
    super(400, 'BadRequest', message);
  }
}

/** The code of a status without an error class of its own (framework and database answers). */
export function codeOfStatus(status: number): string {
  return STATUS_CODES[status] ?? (status >= 500 ? 'Internal' : 'BadRequest');
}

const STATUS_CODES: Record<number, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  409: 'Conflict',
  413: 'PayloadTooLarge',
  415: 'UnsupportedMediaType',
  429: 'TooManyRequests',
  502: 'BadGateway',
  503: 'Unavailable',
  507: 'InsufficientStorage',
};
