/**
 * The checks every request's input passes before anything recursive sees it (Ajv, hashing,
 * JSON.stringify, the database driver): free-form objects nest at most MAX_NESTING levels, no
 * text, object key included, carries U+0000 (PostgreSQL refuses it; SQLite would store it), and
 * a field declared integer holds an exact one (|n| < 2^53). One iterative walk, so a body nested
 * 100,000 levels deep costs a loop, not the stack.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { BadRequestError, NotFoundError, type FieldProblem } from '../kernel/errors.ts';

export const MAX_NESTING = 32;

const NUL = '\u0000';

/** A JSON Schema node, as far as the walk reads it. */
interface SchemaNode {
  properties?: Record<string, SchemaNode>;
  additionalProperties?: boolean | SchemaNode;
  items?: SchemaNode | SchemaNode[];
  anyOf?: SchemaNode[];
  oneOf?: SchemaNode[];
  type?: string | string[];
}

interface Visit {
  value: unknown;
  /** Where the value sits: its parent's visit and its key there. The path is built only for an error. */
  parent: Visit | undefined;
  key: string;
  /** The schema of this value while the walk still follows the declared structure. */
  schema: SchemaNode | undefined;
  /** Set once inside a free-form value: that value's visit and how deep this one sits in it (1 = itself). */
  freeRoot: Visit | undefined;
  depth: number;
}

function pathOf(visit: Visit | undefined, rootPath: readonly string[]): string[] {
  const keys: string[] = [];
  for (let at = visit; at?.parent; at = at.parent) keys.push(at.key);
  return [...rootPath, ...keys.reverse()];
}

export function fieldName(path: readonly string[], root = '(body)'): string {
  return path.length === 0 ? root : path.join('.');
}

/** Renders a key for a field path; a NUL in it would otherwise end up in the error body. */
function keyName(key: string): string {
  return key.includes(NUL) ? key.replaceAll(NUL, '\\u0000') : key;
}

/** The member of a union that describes a container of this kind, if any. */
function structuredSchema(schema: SchemaNode | undefined, isArray: boolean): SchemaNode | undefined {
  if (!schema) return undefined;
  const members = schema.anyOf ?? schema.oneOf;
  if (members) return members.find((member) => structuredSchema(member, isArray) !== undefined);
  if (isArray) return schema.items && !Array.isArray(schema.items) ? schema : undefined;
  return schema.properties ? schema : undefined;
}

function declaresInteger(schema: SchemaNode | undefined): boolean {
  if (!schema) return false;
  if (schema.type === 'integer' || (Array.isArray(schema.type) && schema.type.includes('integer'))) return true;
  return (schema.anyOf ?? schema.oneOf ?? []).some(declaresInteger);
}

function childSchema(schema: SchemaNode | undefined, key: string | number): SchemaNode | undefined {
  if (!schema) return undefined;
  if (typeof key === 'number') return schema.items as SchemaNode | undefined;
  const declared = schema.properties && Object.hasOwn(schema.properties, key) ? schema.properties[key] : undefined;
  if (declared) return declared;
  return typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
}

/**
 * The first problem in a parsed JSON value, or undefined. `schema` is the declared schema of the
 * value: depth is counted from where it stops describing the structure (a `metadata` record, a
 * `data` object of a log entry), so the field named is the free-form one (`logs.3.data`).
 * Without a schema the whole value counts as free-form.
 */
export function findInputProblem(value: unknown, schema?: unknown, rootPath: readonly string[] = []): FieldProblem | undefined {
  const stack: Visit[] = [{ value, parent: undefined, key: '', schema: schema as SchemaNode | undefined, freeRoot: undefined, depth: 0 }];
  while (stack.length > 0) {
    const visit = stack.pop()!;
    const current = visit.value;
    if (typeof current === 'string') {
      if (current.includes(NUL)) return { field: fieldName(pathOf(visit, rootPath)), message: 'must not contain the character U+0000' };
      continue;
    }
    if (typeof current === 'number') {
      // Past 2^53 a JSON integer is no longer exact, and past 2^63 no database column holds it.
      if (Number.isInteger(current) && !Number.isSafeInteger(current) && declaresInteger(visit.schema)) {
        return { field: fieldName(pathOf(visit, rootPath)), message: `must be between -${Number.MAX_SAFE_INTEGER} and ${Number.MAX_SAFE_INTEGER}` };
      }
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    const isArray = Array.isArray(current);
    const structured = visit.freeRoot ? undefined : structuredSchema(visit.schema, isArray);
    let freeRoot = visit.freeRoot;
    let depth = visit.depth;
    if (!freeRoot && !structured) {
      freeRoot = visit;
      depth = 1;
    }
    if (freeRoot && depth > MAX_NESTING) {
      return { field: fieldName(pathOf(freeRoot, rootPath)), message: `must not nest deeper than ${MAX_NESTING} levels` };
    }
    if (isArray) {
      for (let index = current.length - 1; index >= 0; index--) {
        stack.push({ value: current[index], parent: visit, key: String(index), schema: childSchema(structured, index), freeRoot, depth: depth + 1 });
      }
      continue;
    }
    for (const key of Object.keys(current)) {
      if (key.includes(NUL)) {
        const path = [...pathOf(visit, rootPath), keyName(key)];
        return { field: fieldName(path), message: 'must not contain the character U+0000 in its name' };
      }
      const schema = childSchema(structured, key);
      // A key the schema does not declare belongs to the declared object: it counts from there.
      const undeclared = structured !== undefined && schema === undefined;
      stack.push({ value: (current as Record<string, unknown>)[key], parent: visit, key, schema, freeRoot: undeclared ? visit : freeRoot, depth: undeclared ? 2 : depth + 1 });
    }
  }
  return undefined;
}

/** Query parameters that name an item: a bad value there is a missing item (404), not a bad request. */
export function namesAnItem(parameter: string): boolean {
  return parameter === 'id' || parameter === 'token' || /^[a-z][A-Za-z0-9]*Id$/.test(parameter);
}

export type QueryProblem = { kind: 'missing-item' } | { kind: 'bad'; problem: FieldProblem };

/** NUL in a query value: for an id, no item has it; for anything else, the parameter is named. */
export function findQueryProblem(query: unknown): QueryProblem | undefined {
  if (query === null || typeof query !== 'object') return undefined;
  for (const [name, raw] of Object.entries(query)) {
    const values: unknown[] = Array.isArray(raw) ? raw : [raw];
    if (!values.some((value) => typeof value === 'string' && value.includes(NUL))) continue;
    if (namesAnItem(name)) return { kind: 'missing-item' };
    return { kind: 'bad', problem: { field: keyName(name), message: 'must not contain the character U+0000' } };
  }
  return undefined;
}

/** Whether a path parameter holds text no item id can have. */
export function hasImpossibleParam(params: unknown): boolean {
  if (params === null || typeof params !== 'object') return false;
  return Object.values(params).some((value) => typeof value === 'string' && value.includes(NUL));
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route checks its body itself with `findInputProblem` (/mcp answers in JSON-RPC terms). */
    guardsOwnBody?: boolean;
  }
}

/**
 * A preValidation hook for every route: path ids with NUL are missing items (404); NUL in other
 * query text, and NUL or deep nesting in a body, are 400 naming the field. Runs before Ajv.
 */
export function guardRequestInput(request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void): void {
  if (hasImpossibleParam(request.params)) return done(new NotFoundError());
  const query = findQueryProblem(request.query);
  if (query?.kind === 'missing-item') return done(new NotFoundError());
  if (query) return done(new BadRequestError(`Invalid query parameter ${query.problem.field}: ${query.problem.message}`, [query.problem]));
  if (request.body === undefined || request.routeOptions.config.guardsOwnBody) return done();
  const problem = findInputProblem(request.body, request.routeOptions.schema?.body);
  if (problem) return done(new BadRequestError(`Invalid field ${problem.field}: ${problem.message}`, [problem]));
  done();
}
