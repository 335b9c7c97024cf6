/**
 * The checks every request's input passes before anything recursive sees it (Ajv, hashing,
 * JSON.stringify, the database driver): free-form objects nest at most MAX_NESTING levels, no
 * text, object key included, carries U+0000 (PostgreSQL refuses it; SQLite would store it), and
 * a field declared integer holds an exact one (|n| < 2^53). Iterative walks, so a body nested
 * 100,000 levels deep costs a loop, not the stack.
 *
 * Every request with a body pays for the check, so it comes in two parts: a scan that only says
 * whether there is a problem (a plain stack of values, the schema compiled once into a `Plan`, no
 * object per value, no paths), and, only when there is one, the walk that finds the first problem
 * and names its field. Both apply the same rules to the same values, so they agree.
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
export function findInputProblem(
  value: unknown,
  schema?: unknown,
  rootPath: readonly string[] = [],
): FieldProblem | undefined {
  return hasInputProblem(value, planOf(schema as SchemaNode | undefined))
    ? locateInputProblem(value, schema, rootPath)
    : undefined;
}

/** What the scan checks at one place of the declared structure: a schema node, compiled once. */
interface Plan {
  /** A whole number here must be exact: the schema declares an integer. */
  integer: boolean;
  /** An object here follows the schema (else it is free-form from here). */
  object:
    | { declared: Map<string, Plan> /** Any other key; undefined: the key is undeclared. */; other: Plan | undefined }
    | undefined;
  /** An array here follows the schema: the plan of its items (else it is free-form from here). */
  items: Plan | undefined;
}

/** No schema, or one that describes no structure: strings are checked, containers are free-form. */
const FREE: Plan = { integer: false, object: undefined, items: undefined };
/** Route schemas are static: each node is compiled once, on the first request that needs it. */
const plans = new WeakMap<object, Plan>();

/** The same reading of the schema as `locateInputProblem`'s (structuredSchema, childSchema, declaresInteger). */
function planOf(schema: SchemaNode | undefined): Plan {
  if (schema === null || typeof schema !== 'object') return FREE;
  const known = plans.get(schema);
  if (known) return known;
  const plan: Plan = { integer: declaresInteger(schema), object: undefined, items: undefined };
  plans.set(schema, plan); // before the children, so a schema that contains itself ends
  const asObject = structuredSchema(schema, false);
  if (asObject) {
    const declared = new Map<string, Plan>();
    // A declared key is known to be free of NUL: the scan checks only the others.
    for (const [key, member] of Object.entries(asObject.properties ?? {}))
      if (member && !key.includes(NUL)) declared.set(key, planOf(member));
    const other = typeof asObject.additionalProperties === 'object' ? planOf(asObject.additionalProperties) : undefined;
    plan.object = { declared, other };
  }
  const asArray = structuredSchema(schema, true);
  if (asArray) plan.items = planOf(asArray.items as SchemaNode | undefined);
  return plan;
}

/** A string with NUL, or an inexact whole number where an integer is declared. */
function leafHasProblem(value: unknown, plan: Plan | undefined): boolean {
  if (typeof value === 'string') return value.includes(NUL);
  return (
    typeof value === 'number' &&
    plan !== undefined &&
    plan.integer &&
    Number.isInteger(value) &&
    !Number.isSafeInteger(value)
  );
}

/**
 * Whether the value breaks a rule. Each stacked container carries either its plan (while the
 * schema describes it) or its depth inside the free-form value it belongs to; leaves are checked
 * where they are met. Only containers are stacked, and no path is kept. Keys are read with
 * `for…in`, which allocates no array: parsed JSON has only own keys (its prototype,
 * Object.prototype, has no enumerable ones), so it lists what `Object.keys` would.
 */
function hasInputProblem(root: unknown, rootPlan: Plan): boolean {
  if (root === null || typeof root !== 'object') return leafHasProblem(root, rootPlan);
  const values: object[] = [root];
  const places: (Plan | number)[] = [rootPlan];
  while (values.length > 0) {
    const current = values.pop()!;
    let place = places.pop()!;
    const isArray = Array.isArray(current);
    if (typeof place !== 'number') {
      const plan = place;
      if (isArray ? plan.items === undefined : plan.object === undefined) {
        place = 1; // a container the schema does not describe: free-form from here
      } else if (isArray) {
        const items = plan.items!;
        for (let index = 0; index < current.length; index++) {
          const item: unknown = current[index];
          if (item !== null && typeof item === 'object') {
            values.push(item);
            places.push(items);
          } else if (leafHasProblem(item, items)) return true;
        }
        continue;
      } else {
        const { declared, other } = plan.object!;
        for (const key in current) {
          const child: unknown = (current as Record<string, unknown>)[key];
          let childPlan = declared.get(key);
          if (childPlan === undefined) {
            if (key.includes(NUL)) return true;
            // An undeclared key belongs to the declared object: free-form, counted from there (2).
            childPlan = other;
          }
          if (child !== null && typeof child === 'object') {
            values.push(child);
            places.push(childPlan ?? 2);
          } else if (leafHasProblem(child, childPlan)) return true;
        }
        continue;
      }
    }
    if (place > MAX_NESTING) return true;
    const depth = place + 1;
    if (isArray) {
      for (let index = 0; index < current.length; index++) {
        const item: unknown = current[index];
        if (item !== null && typeof item === 'object') {
          values.push(item);
          places.push(depth);
        } else if (typeof item === 'string' && item.includes(NUL)) return true;
      }
      continue;
    }
    for (const key in current) {
      if (key.includes(NUL)) return true;
      const child: unknown = (current as Record<string, unknown>)[key];
      if (child !== null && typeof child === 'object') {
        values.push(child);
        places.push(depth);
      } else if (typeof child === 'string' && child.includes(NUL)) return true;
    }
  }
  return false;
}

/** The first problem in the order the rules were first written for, with its field's path. */
function locateInputProblem(value: unknown, schema: unknown, rootPath: readonly string[]): FieldProblem | undefined {
  const stack: Visit[] = [
    { value, parent: undefined, key: '', schema: schema as SchemaNode | undefined, freeRoot: undefined, depth: 0 },
  ];
  while (stack.length > 0) {
    const visit = stack.pop()!;
    const current = visit.value;
    if (typeof current === 'string') {
      if (current.includes(NUL))
        return { field: fieldName(pathOf(visit, rootPath)), message: 'must not contain the character U+0000' };
      continue;
    }
    if (typeof current === 'number') {
      // Past 2^53 a JSON integer is no longer exact, and past 2^63 no database column holds it.
      if (Number.isInteger(current) && !Number.isSafeInteger(current) && declaresInteger(visit.schema)) {
        return {
          field: fieldName(pathOf(visit, rootPath)),
          message: `must be between -${Number.MAX_SAFE_INTEGER} and ${Number.MAX_SAFE_INTEGER}`,
        };
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
      return {
        field: fieldName(pathOf(freeRoot, rootPath)),
        message: `must not nest deeper than ${MAX_NESTING} levels`,
      };
    }
    if (isArray) {
      for (let index = current.length - 1; index >= 0; index--) {
        stack.push({
          value: current[index],
          parent: visit,
          key: String(index),
          schema: childSchema(structured, index),
          freeRoot,
          depth: depth + 1,
        });
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
      stack.push({
        value: (current as Record<string, unknown>)[key],
        parent: visit,
        key,
        schema,
        freeRoot: undeclared ? visit : freeRoot,
        depth: undeclared ? 2 : depth + 1,
      });
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
  if (query === null || typeof query !== 'object' || !someTextHasNul(query)) return undefined;
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
  for (const value of Object.values(params)) if (typeof value === 'string' && value.includes(NUL)) return true;
  return false;
}

/** Whether a value of the query, or an item of a repeated one, is text with NUL: the common answer, no. */
function someTextHasNul(record: object): boolean {
  for (const value of Object.values(record)) {
    if (typeof value === 'string') {
      if (value.includes(NUL)) return true;
    } else if (Array.isArray(value)) {
      for (const item of value) if (typeof item === 'string' && item.includes(NUL)) return true;
    }
  }
  return false;
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
  done(findRequestInputError(request));
}

function findRequestInputError(request: FastifyRequest): Error | undefined {
  if (hasImpossibleParam(request.params)) return new NotFoundError();
  const query = findQueryProblem(request.query);
  if (query?.kind === 'missing-item') return new NotFoundError();
  if (query) {
    return new BadRequestError(`Invalid query parameter ${query.problem.field}: ${query.problem.message}`, [
      query.problem,
    ]);
  }
  if (request.body === undefined) return undefined;
  // Fastify builds a new routeOptions object on every read: read it once.
  const { config, schema } = request.routeOptions;
  if (config.guardsOwnBody) return undefined;
  const problem = findInputProblem(request.body, schema?.body);
  if (problem) return new BadRequestError(`Invalid field ${problem.field}: ${problem.message}`, [problem]);
  return undefined;
}
