import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { isStorageFull } from '../db/failures.ts';
import { databaseErrorAnswer } from './database-errors.ts';
import {
  codeOfStatus,
  DatabaseUnavailableError,
  type FieldProblem,
  HttpError,
  SpecFixedBadRequestError,
} from '../kernel/errors.ts';
import { namesNoItem, validationError } from './validation.ts';

/** Fastify's own 4xx errors, mapped to the texts our API documents. */
const FRAMEWORK_ERRORS: Record<string, [number, string]> = {
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'Request body is too large (limit 1 MiB)'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'Unsupported content type: send application/json'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'Content-Length does not match the body'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'Request body is empty: send a JSON object'],
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'Malformed JSON body'],
};

export interface ErrorAnswer {
  error: string;
  code: string;
  details?: FieldProblem[];
}

/** The body of every error answer: the text for people, the stable code for programs, field problems. */
export function errorAnswer(
  status: number,
  error: string,
  details?: FieldProblem[],
  code = codeOfStatus(status),
): ErrorAnswer {
  return details ? { error, code, details } : { error, code };
}

/** A request that carries a file: a source map, an artifact bundle's chunks, an attachment. */
function isUpload(request: FastifyRequest): boolean {
  return /^(multipart\/|application\/(octet-stream|zip|gzip|x-gzip))/i.test(request.headers['content-type'] ?? '');
}

export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof SpecFixedBadRequestError) return reply.code(400).send({ error: error.message });
    // Before HttpError: the database's faults (and a full disk under uploaded files) are 503s.
    // The adapters (db/) turn the database's faults into DatabaseUnavailableError; a file written
    // to a full disk (ENOSPC) is the same fault of the moment.
    const unavailable =
      error instanceof DatabaseUnavailableError
        ? error
        : isStorageFull(error)
          ? new DatabaseUnavailableError({ storageFull: true, cause: error })
          : undefined;
    if (unavailable) {
      request.log.warn({ err: unavailable.cause ?? unavailable }, 'database unavailable');
      reply.headers(unavailable.headers);
      // RFC 4918's 507: the upload itself cannot be stored, a different remedy than waiting.
      if (unavailable.storageFull && isUpload(request))
        return reply
          .code(507)
          .send(errorAnswer(507, 'The server has no room to store this upload now; try again later'));
      return reply.code(503).send(errorAnswer(503, unavailable.message, undefined, unavailable.code));
    }
    if (error instanceof HttpError) {
      reply.headers(error.headers).code(error.statusCode);
      return errorAnswer(error.statusCode, error.message, error.details, error.code);
    }
    if (error.validation) {
      // A path id, or a query parameter naming an item, that fails its rules names no item.
      if (namesNoItem(error.validation as never, error.validationContext, request.method, request.routeOptions.url))
        return reply.code(404).send(errorAnswer(404, 'Not found'));
      const problem = validationError(error.validation as never, error.validationContext ?? 'body');
      return reply.code(400).send(errorAnswer(400, problem.message, problem.details));
    }
    const known = error.code ? FRAMEWORK_ERRORS[error.code] : undefined;
    if (known) return reply.code(known[0]).send(errorAnswer(known[0], known[1]));
    if (error instanceof SyntaxError || /prototype property/.test(error.message)) {
      // Body parse failures, including secure-json-parse refusing __proto__ / constructor keys.
      return reply.code(400).send(errorAnswer(400, 'Malformed JSON body'));
    }
    const fromDatabase = databaseErrorAnswer(error);
    if (fromDatabase) return reply.code(fromDatabase[0]).send(errorAnswer(fromDatabase[0], fromDatabase[1].error));
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return reply.code(status).send(errorAnswer(status, error.message));
    }
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send(errorAnswer(500, 'Internal error'));
  });

  app.setNotFoundHandler((_request, reply) => reply.code(404).send(errorAnswer(404, 'Not found')));
}
