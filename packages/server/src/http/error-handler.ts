import type { FastifyError, FastifyInstance } from 'fastify';
import { databaseErrorAnswer } from './database-errors.ts';
import { HttpError } from '../kernel/errors.ts';
import { namesNoItem, validationError } from './validation.ts';

/** Fastify's own 4xx errors, mapped to the texts our API documents. */
const FRAMEWORK_ERRORS: Record<string, [number, string]> = {
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'Request body is too large (limit 1 MiB)'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'Unsupported content type: send application/json'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'Content-Length does not match the body'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'Request body is empty: send a JSON object'],
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'Malformed JSON body'],
};

export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpError) {
      reply.headers(error.headers).code(error.statusCode);
      return error.details ? { error: error.message, details: error.details } : { error: error.message };
    }
    if (error.validation) {
      // A path id, or a query parameter naming an item, that fails its rules names no item.
      if (namesNoItem(error.validation as never, error.validationContext, request.method, request.routeOptions.url))
        return reply.code(404).send({ error: 'Not found' });
      const problem = validationError(error.validation as never, error.validationContext ?? 'body');
      return reply.code(400).send({ error: problem.message, details: problem.details });
    }
    const known = error.code ? FRAMEWORK_ERRORS[error.code] : undefined;
    if (known) return reply.code(known[0]).send({ error: known[1] });
    if (error instanceof SyntaxError || /prototype property/.test(error.message)) {
      // Body parse failures, including secure-json-parse refusing __proto__ / constructor keys.
      return reply.code(400).send({ error: 'Malformed JSON body' });
    }
    const fromDatabase = databaseErrorAnswer(error);
    if (fromDatabase) return reply.code(fromDatabase[0]).send(fromDatabase[1]);
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return reply.code(status).send({ error: error.message });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send({ error: 'Internal error' });
  });

  app.setNotFoundHandler((_request, reply) => reply.code(404).send({ error: 'Not found' }));
}
