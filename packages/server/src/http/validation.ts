import { Ajv, type ErrorObject } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { BadRequestError, type FieldProblem } from './errors.ts';

// ajv-formats is CommonJS; its default export arrives wrapped under ES module interop.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

function makeAjv(coerceTypes: boolean): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    coerceTypes,
    useDefaults: true,
    removeAdditional: false,
    strict: false,
  });
  addFormats(ajv);
  return ajv;
}

// Bodies are checked strictly ("123" is not a number); query strings and path parameters are
// text on the wire, so there the validator converts to the declared type.
const strictAjv = makeAjv(false);
const coercingAjv = makeAjv(true);

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const ajv = httpPart === 'body' ? strictAjv : coercingAjv;
  return ajv.compile(schema as object) as ReturnType<FastifySchemaCompiler<unknown>>;
};

export function fieldProblems(errors: readonly ErrorObject[]): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    const path = error.instancePath.split('/').filter(Boolean);
    if (error.keyword === 'required') path.push(String(error.params['missingProperty']));
    const field = path.join('.') || '(body)';
    const message = describe(error);
    const id = `${field}\u0000${message}`;
    if (seen.has(id)) continue;
    seen.add(id);
    problems.push({ field, message });
  }
  return problems;
}

function describe(error: ErrorObject): string {
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'type':
      return `must be ${p['type'] === 'integer' ? 'an integer' : `of type ${String(p['type'])}`}`;
    case 'minLength':
      return `must be at least ${String(p['limit'])} characters`;
    case 'maxLength':
      return `must be at most ${String(p['limit'])} characters`;
    case 'minimum':
      return `must be ${String(p['limit'])} or more`;
    case 'maximum':
      return `must be ${String(p['limit'])} or less`;
    case 'maxItems':
      return `must have at most ${String(p['limit'])} items`;
    case 'minItems':
      return `must have at least ${String(p['limit'])} items`;
    case 'enum':
      return `must be one of: ${(p['allowedValues'] as unknown[]).join(', ')}`;
    case 'format':
      return `must be a valid ${String(p['format'])}`;
    case 'pattern':
      return 'has characters that are not allowed';
    default:
      return error.message ?? 'is invalid';
  }
}

/** Turns Fastify's schema failure into our 400, naming the part that failed when it is not the body. */
export function validationError(errors: readonly ErrorObject[], part: string): BadRequestError {
  const details = fieldProblems(errors).map((problem) =>
    part === 'body' || problem.field === '(body)' ? problem : { ...problem, field: problem.field },
  );
  const first = details[0];
  const where = part === 'querystring' ? 'query parameter' : part === 'params' ? 'path parameter' : 'field';
  const summary = first ? `Invalid ${where} ${first.field}: ${first.message}` : 'Invalid request';
  return new BadRequestError(summary, details);
}
