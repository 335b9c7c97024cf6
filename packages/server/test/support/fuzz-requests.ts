/**
 * The requests the fuzz test sends for one OpenAPI operation: a plausible valid request, then
 * variants that each break one thing (a path id, a query parameter, a body field, the whole
 * body); later rounds combine random breakages.
 */
import {
  badValuesFor,
  deepArray,
  deepObject,
  fieldsOf,
  NUL_TEXT,
  ODD_DATES,
  ODD_IDS,
  ODD_TEXT,
  ODD_NUMBER_TEXT,
  Raw,
  resolve,
  sample,
  toJson,
  typeOf,
  withValue,
  type Schema,
} from './fuzz-values.ts';

export interface Operation {
  /** `/api/public/v1` or `/api/v1`. */
  base: string;
  method: string;
  /** The templated path, e.g. `/projects/{projectId}`. */
  path: string;
  pathParams: { name: string; schema: Schema }[];
  queryParams: { name: string; schema: Schema; required: boolean }[];
  body: Schema | undefined;
  doc: Schema;
}

export interface FuzzRequest {
  label: string;
  method: string;
  /** Path and query, relative to the server origin. */
  url: string;
  body?: string;
}

export function operationsOf(doc: Schema, base: string): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries<Schema>(doc['paths'] ?? {})) {
    for (const [method, operation] of Object.entries<Schema>(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const parameters: Schema[] = [...(item['parameters'] ?? []), ...(operation['parameters'] ?? [])];
      operations.push({
        base,
        method: method.toUpperCase(),
        path,
        pathParams: parameters
          .filter((p) => p['in'] === 'path')
          .map((p) => ({ name: p['name'], schema: resolve(p['schema'], doc) ?? {} })),
        queryParams: parameters
          .filter((p) => p['in'] === 'query')
          .map((p) => ({ name: p['name'], schema: resolve(p['schema'], doc) ?? {}, required: Boolean(p['required']) })),
        body: operation['requestBody']?.['content']?.['application/json']?.['schema'],
        doc,
      });
    }
  }
  return operations;
}

interface Mutation {
  label: string;
  path?: Record<string, string>;
  query?: Record<string, string | string[]>;
  /** Replaces the body at a field path (empty: the whole body). */
  field?: { at: (string | number)[]; value: unknown };
  /** The body text as is. */
  rawBody?: string;
}

/** Builds the request for a set of mutations on top of the operation's plausible valid request. */
function build(op: Operation, ids: Record<string, string>, mutations: Mutation[]): FuzzRequest {
  const pathValues: Record<string, string> = {};
  for (const { name } of op.pathParams) pathValues[name] = encodeURIComponent(ids[name] ?? `fuzz-missing-${name}`);
  const query = new Map<string, string[]>();
  for (const { name, schema, required } of op.queryParams) {
    if (required || ids[name] !== undefined) query.set(name, [ids[name] ?? String(sample(schema, op.doc, name))]);
  }
  let body: unknown = op.body ? sample(op.body, op.doc) : undefined;
  let rawBody: string | undefined;
  for (const mutation of mutations) {
    Object.assign(pathValues, mutation.path);
    for (const [name, value] of Object.entries(mutation.query ?? {}))
      query.set(name, Array.isArray(value) ? value : [value]);
    if (mutation.field) body = withValue(body, mutation.field.at, mutation.field.value);
    if (mutation.rawBody !== undefined) rawBody = mutation.rawBody;
  }
  const path = op.path.replace(/\{([^}]+)\}/g, (_match, name: string) => pathValues[name] ?? 'x');
  const search = [...query]
    .flatMap(([name, values]) => values.map((value) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`))
    .join('&');
  const text = rawBody ?? (body === undefined ? undefined : toJson(body));
  return {
    label: `${op.method} ${op.base}${op.path} ${mutations.map((m) => m.label).join(' + ') || 'valid'}`,
    method: op.method,
    url: `${op.base}${path}${search ? `?${search}` : ''}`,
    ...(text !== undefined ? { body: text } : {}),
  };
}

/** Every single-breakage mutation of an operation. */
function mutationsOf(op: Operation, extended = false): Mutation[] {
  const mutations: Mutation[] = [];
  for (const { name } of op.pathParams) {
    for (const id of ODD_IDS)
      mutations.push({
        label: `path ${name}=${JSON.stringify(id.slice(0, 12))}…`,
        path: { [name]: encodeURIComponent(id) },
      });
    mutations.push({ label: `path ${name} raw %zz`, path: { [name]: 'a%zz' } });
  }
  for (const { name, schema } of op.queryParams) {
    const texts = [NUL_TEXT, '\u0000', 'x'.repeat(4000), 'a,b,\u0000'];
    const type = typeOf(schema);
    if (type === 'integer' || type === 'number') texts.push(...ODD_NUMBER_TEXT);
    if (type === 'boolean') texts.push('yes', '1', 'TRUE');
    if (type === 'string') texts.push(...ODD_DATES.slice(0, 6), '2026-06-30T23:59:60Z', ...(extended ? ODD_TEXT : []));
    for (const text of texts)
      mutations.push({ label: `query ${name}=${JSON.stringify(text.slice(0, 12))}`, query: { [name]: text } });
    mutations.push({ label: `query ${name} twice`, query: { [name]: ['1', '2'] } });
  }
  if (['POST', 'PUT', 'PATCH'].includes(op.method)) {
    for (const text of [
      '',
      'null',
      '[]',
      '"text"',
      '1e400',
      '{"a":"\\u0000"}',
      '{"\\u0000":1}',
      deepObject(40).text,
      deepObject(5000).text,
      deepArray(5000).text,
    ]) {
      mutations.push({ label: `body ${text.slice(0, 16)}`, rawBody: text });
    }
    mutations.push({ label: 'body extra deep field', field: { at: ['metadata'], value: deepObject(5000) } });
    mutations.push({ label: 'body extra NUL key', field: { at: [NUL_TEXT], value: 1 } });
    for (const { path, schema } of fieldsOf(op.body, op.doc)) {
      for (const value of badValuesFor(schema, extended)) {
        const shown = value instanceof Raw ? value.text.slice(0, 12) : JSON.stringify(value)?.slice(0, 12);
        mutations.push({ label: `field ${path.join('.')}=${shown}`, field: { at: path, value } });
      }
    }
  }
  return mutations;
}

/** The valid request and every single breakage: the short, deterministic part of the fuzz. */
export function systematicRequests(op: Operation, ids: Record<string, string>): FuzzRequest[] {
  return [build(op, ids, []), ...mutationsOf(op).map((mutation) => build(op, ids, [mutation]))];
}

/** `count` requests that each combine one to three random breakages. */
export function randomRequests(
  op: Operation,
  ids: Record<string, string>,
  next: () => number,
  count: number,
): FuzzRequest[] {
  const all = mutationsOf(op, true);
  if (all.length === 0) return [];
  return Array.from({ length: count }, () => {
    const picks = Array.from({ length: 1 + Math.floor(next() * 3) }, () => all[Math.floor(next() * all.length)]!);
    return build(op, ids, picks);
  });
}
