import { HttpError } from '../../http/errors.ts';

/** 409: the request clashes with what exists (a duplicate key, version or slug). */
export class ConflictError extends HttpError {
  constructor(message: string) {
    super(409, 'Conflict', message);
  }
}
