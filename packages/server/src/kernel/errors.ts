/** Errors that become HTTP responses. One class per kind, one stable name, serialised in errors-handler.ts. */
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
