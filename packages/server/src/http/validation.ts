import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import type { FastifySchemaCompiler } from 'fastify';
import { BadRequestError, type FieldProblem } from '../kernel/errors.ts';
import { namesAnItem } from './input-guard.ts';
import { onFirstUse } from './lazy-compile.ts';

// ajv-formats is CommonJS; its default export arrives wrapped under ES module interop.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

function makeAjv(coerceTypes: boolean): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    coerceTypes,
    useDefaults: true,
    removeAdditional: false,
    strict: false,
    // A JSON number beyond double range (1e400) parses to Infinity: not a number any body field
    // takes. Query text is checked by requiringNumerals instead: there a whole numeral too large
    // for a double must still meet `maximum`, which strictNumbers would skip for Infinity.
    strictNumbers: !coerceTypes,
  });
  addFormats(ajv);
  // RFC 3339 allows a leap second (23:59:60), which Date cannot hold: the stores would throw on it.
  const dateTime = fullFormats['date-time'] as { validate: (text: string) => boolean };
  ajv.addFormat('date-time', {
    type: 'string',
    validate: (text: string) => dateTime.validate(text) && !Number.isNaN(Date.parse(text)),
  });
  return ajv;
}

// Bodies are checked strictly ("123" is not a number); query strings and path parameters are
// text on the wire, so there the validator converts to the declared type.
const strictAjv = makeAjv(false);
const coercingAjv = makeAjv(true);

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) =>
  compiledOnFirstUse(() =>
    httpPart === 'body'
      ? strictAjv.compile(schema as object)
      : requiringNumerals(coercingAjv.compile(schema as object), schema),
  ) as ReturnType<FastifySchemaCompiler<unknown>>;

/**
 * A validator compiled on its first call, not at start: a server holds a few hundred routes'
 * validators, and the generated code of those no client calls would sit in memory for nothing.
 */
function compiledOnFirstUse(compile: () => ValidateFunction): ValidateFunction {
  const compiled = onFirstUse(compile);
  const validate = ((data: unknown, ...rest: unknown[]) => {
    const check = compiled();
    const valid = (check as (...args: unknown[]) => boolean)(data, ...rest);
    validate.errors = check.errors ?? null;
    return valid;
  }) as ValidateFunction;
  return validate;
}

/** Decimal numerals only: Ajv's coercion would also take `Infinity`, `1e400`, `0x10` and ` 5`. */
const NUMERAL_TEXT = { integer: /^[+-]?\d+$/, number: /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/ };

/**
 * Query and path text declared as a number must be written as one. A whole numeral too large for
 * a double still passes (a huge `limit` is clamped; an `offset` has its own maximum).
 */
function requiringNumerals(validate: ValidateFunction, schema: unknown): ValidateFunction {
  const properties = (schema as { properties?: Record<string, { type?: unknown }> }).properties ?? {};
  const numeric = Object.entries(properties).flatMap(([name, property]) =>
    property.type === 'integer' || property.type === 'number' ? [[name, property.type] as const] : [],
  );
  if (numeric.length === 0) return validate;
  const checked = ((data: unknown, ...rest: unknown[]) => {
    for (const [name, type] of numeric) {
      const text = (data as Record<string, unknown> | null)?.[name];
      if (typeof text === 'string' && !NUMERAL_TEXT[type].test(text)) {
        checked.errors = [
          {
            instancePath: `/${name}`,
            schemaPath: '#/type',
            keyword: 'type',
            params: { type },
            message: `must be ${type}`,
          },
        ];
        return false;
      }
    }
    const valid = (validate as (...args: unknown[]) => boolean)(data, ...rest);
    checked.errors = validate.errors;
    return valid;
  }) as ValidateFunction;
  Object.defineProperty(checked, 'schemaEnv', { value: validate.schemaEnv });
  return checked;
}

export function fieldProblems(errors: readonly ErrorObject[]): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    const path = error.instancePath.split('/').filter(Boolean);
    if (error.keyword === 'required') path.push(String(error.params['missingProperty']));
    if (error.keyword === 'additionalProperties') path.push(String(error.params['additionalProperty']));
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
    case 'additionalProperties':
      return 'is not a known field';
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

/**
 * Whether a failed check of path parameters or of an id-naming query parameter means "no such
 * item" (404). The one exception: the last segment of a PUT path is the name the caller sets
 * (a voter id, a flag key, a locale), so a bad one there is a bad request.
 */
export function namesNoItem(
  errors: readonly ErrorObject[],
  part: string | undefined,
  method: string,
  url: string | undefined,
): boolean {
  const names = errors.flatMap((error) =>
    error.keyword === 'required' ? [] : [error.instancePath.split('/').filter(Boolean)[0] ?? ''],
  );
  if (part === 'params') {
    const named = method === 'PUT' ? /\/:([A-Za-z0-9_]+)$/.exec(url ?? '')?.[1] : undefined;
    return names.some((name) => name !== named);
  }
  return part === 'querystring' && names.some((name) => namesAnItem(name));
}
