/**
 * An HTTP client for tests that checks every response it receives against the server's own
 * OpenAPI document: a status or body the document does not describe fails the test.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { ValidateFunction } from 'ajv';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  key?: string | null;
  /** Send the key as `Authorization: Bearer` instead of `X-API-Key`. */
  bearer?: boolean;
  headers?: Record<string, string>;
  query?: Record<string, string | number | boolean | undefined>;
  /** A raw body (text or bytes) sent as is, with the content type given in headers. */
  rawBody?: string | Uint8Array;
  /** Skip the OpenAPI check (for deliberately malformed requests the router never matches). */
  unchecked?: boolean;
}

interface Operation {
  method: string;
  pattern: RegExp;
  pointer: string;
  /** Path parameters in the template: fewer wins when several templates match. */
  params: number;
  responses: Record<string, unknown>;
}

class OpenApiChecker {
  private readonly ajv: Ajv2020;
  private readonly operations: Operation[] = [];
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(document: any) {
    this.ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
    addFormats(this.ajv);
    this.ajv.addSchema({ ...document, $id: 'openapi' }, 'openapi');
    for (const [path, item] of Object.entries<any>(document.paths ?? {})) {
      const pattern = new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}/?$`);
      for (const [method, operation] of Object.entries<any>(item)) {
        const pointer = `#/paths/${path.replace(/~/g, '~0').replace(/\//g, '~1')}/${method}`;
        const params = (path.match(/\{/g) ?? []).length;
        this.operations.push({
          method: method.toUpperCase(),
          pattern,
          pointer,
          params,
          responses: operation.responses ?? {},
        });
      }
    }
  }

  check(method: string, path: string, status: number, contentType: string | null, body: unknown): void {
    // As the router does, a literal segment wins over a parameter: /logs/lines is not /logs/{reportId}.
    const operation = this.operations
      .filter((op) => op.method === method && op.pattern.test(path))
      .sort((a, b) => a.params - b.params)[0];
    if (!operation) throw new Error(`OpenAPI: ${method} ${path} is not in the document`);
    const documented = operation.responses[String(status)] as any;
    if (!documented) throw new Error(`OpenAPI: ${method} ${path} answered ${status}, which the document does not list`);
    const schema = documented.content?.['application/json']?.schema;
    // A documented non-JSON answer (an attachment's image): its type must be one the document names.
    const other = Object.keys(documented.content ?? {}).filter((type) => type !== 'application/json');
    if (!schema && other.length > 0 && contentType) {
      const answered = contentType.split(';')[0]!.trim();
      if (other.some((type) => type === answered || (type.endsWith('/*') && answered.startsWith(type.slice(0, -1))))) {
        return;
      }
      throw new Error(`OpenAPI: ${method} ${path} ${status} answered ${contentType}, not one of ${other.join(', ')}`);
    }
    if (!schema) {
      if (status === 304 || status === 204) return;
      // A documented non-JSON answer (an export's CSV or JSON lines) in its documented media type.
      const media = contentType?.split(';')[0]?.trim();
      if (media && documented.content?.[media]) return;
      throw new Error(`OpenAPI: ${method} ${path} ${status} has no JSON schema in the document`);
    }
    if (!contentType?.includes('application/json')) {
      throw new Error(`OpenAPI: ${method} ${path} ${status} answered ${contentType}, not JSON`);
    }
    const ref = `openapi${operation.pointer}/responses/${status}/content/application~1json/schema`;
    let validate = this.validators.get(ref);
    if (!validate) {
      validate = this.ajv.compile({ $ref: ref });
      this.validators.set(ref, validate);
    }
    if (!validate(body)) {
      throw new Error(
        `OpenAPI: ${method} ${path} ${status} body does not match the document: ${this.ajv.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 500)}`,
      );
    }
  }
}

const checkers = new Map<string, Promise<OpenApiChecker>>();

function checkerFor(baseUrl: string): Promise<OpenApiChecker> {
  let checker = checkers.get(baseUrl);
  if (!checker) {
    checker = fetch(`${baseUrl}/openapi.json`).then(async (response) => new OpenApiChecker(await response.json()));
    checkers.set(baseUrl, checker);
  }
  return checker;
}

export class Api {
  readonly baseUrl: string;
  readonly key: string | null;
  /** Sent with every request (a session cookie, `X-Requested-With`, …); per-request headers win. */
  readonly headers: Record<string, string>;

  constructor(baseUrl: string, key: string | null = null, headers: Record<string, string> = {}) {
    this.baseUrl = baseUrl;
    this.key = key;
    this.headers = headers;
  }

  withKey(key: string | null): Api {
    return new Api(this.baseUrl, key, this.headers);
  }

  withHeaders(headers: Record<string, string>): Api {
    return new Api(this.baseUrl, this.key, { ...this.headers, ...headers });
  }

  get<T = any>(path: string, options: RequestOptions = {}) {
    return this.request<T>('GET', path, undefined, options);
  }
  post<T = any>(path: string, body?: unknown, options: RequestOptions = {}) {
    return this.request<T>('POST', path, body, options);
  }
  patch<T = any>(path: string, body?: unknown, options: RequestOptions = {}) {
    return this.request<T>('PATCH', path, body, options);
  }
  put<T = any>(path: string, body?: unknown, options: RequestOptions = {}) {
    return this.request<T>('PUT', path, body, options);
  }
  delete<T = any>(path: string, options: RequestOptions = {}) {
    return this.request<T>('DELETE', path, undefined, options);
  }

  async request<T>(method: string, path: string, body: unknown, options: RequestOptions): Promise<ApiResponse<T>> {
    const url = new URL(this.baseUrl + path);
    for (const [name, value] of Object.entries(options.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    const headers: Record<string, string> = { ...this.headers, ...options.headers };
    const key = options.key === undefined ? this.key : options.key;
    if (key) {
      if (options.bearer) headers['authorization'] = `Bearer ${key}`;
      else headers['x-api-key'] = key;
    }
    let payload: string | Uint8Array | undefined = options.rawBody;
    if (payload === undefined && body !== undefined) {
      payload = JSON.stringify(body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(url, { method, headers, body: (payload ?? null) as RequestInit['body'] });
    const text = await response.text();
    let parsed: unknown;
    if (text && response.headers.get('content-type')?.includes('application/json')) parsed = JSON.parse(text);
    if (!options.unchecked) {
      const checker = await checkerFor(this.baseUrl);
      checker.check(
        method,
        url.pathname.slice(new URL(this.baseUrl).pathname.length),
        response.status,
        response.headers.get('content-type'),
        parsed,
      );
    }
    return { status: response.status, headers: response.headers, body: parsed as T, text };
  }
}
