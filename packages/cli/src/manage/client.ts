/** The management API (`<url>/api/v1`) over HTTP with fetch, authenticated with a personal access token. */
import { ApiError, CliError, EXIT } from './errors.ts';
import type { Target } from './config.ts';
import { VERSION } from '../version.ts';

export const API_PREFIX = '/api/v1';

export type Query = Record<string, string | number | boolean | undefined>;

/** A body sent as it is instead of as JSON. */
class RawBody {
  readonly bytes: Uint8Array;
  readonly contentType: string;
  constructor(bytes: Uint8Array, contentType: string) {
    this.bytes = bytes;
    this.contentType = contentType;
  }
}

export class Client {
  readonly url: string;
  private readonly token: string | undefined;

  constructor(url: string, token: string | undefined) {
    this.url = url;
    this.token = token;
  }

  static signedIn(target: Target): Client {
    if (!target.token) {
      throw new CliError(
        `Not signed in to ${target.url}. Run: signpost login --token <personal access token> --url ${target.url}`,
        EXIT.environment,
      );
    }
    return new Client(target.url, target.token);
  }

  get<T = any>(path: string, query?: Query): Promise<T> {
    return this.request<T>('GET', path, undefined, query);
  }
  post<T = any>(path: string, body?: unknown, query?: Query): Promise<T> {
    return this.request<T>('POST', path, body ?? {}, query);
  }
  patch<T = any>(path: string, body: unknown): Promise<T> {
    return this.request<T>('PATCH', path, body);
  }
  put<T = any>(path: string, body: unknown): Promise<T> {
    return this.request<T>('PUT', path, body);
  }

  /** GETs a non-JSON answer (an export) and writes it to `out` as it arrives. */
  async download(path: string, query: Query, out: NodeJS.WritableStream): Promise<void> {
    const url = new URL(this.url + API_PREFIX + path);
    for (const [name, value] of Object.entries(query))
      if (value !== undefined) url.searchParams.set(name, String(value));
    const headers: Record<string, string> = { 'user-agent': `signpost-cli/${VERSION}` };
    if (this.token) headers['authorization'] = `Bearer ${this.token}`;
    let response: Response;
    try {
      response = await fetch(url, { headers });
    } catch (error) {
      throw new CliError(
        `Cannot reach the Signpost server at ${this.url} (${(error as Error).message})`,
        EXIT.environment,
      );
    }
    if (!response.ok || !response.body) {
      const text = await response.text();
      let problem: { error?: string; details?: Array<{ field: string; message: string }> } = {};
      try {
        problem = JSON.parse(text);
      } catch {}
      const message = problem.error ?? `HTTP ${response.status} ${response.statusText}`;
      throw new ApiError(response.status, `${message} (HTTP ${response.status})`, problem.details ?? [], problem);
    }
    const { Readable } = await import('node:stream');
    const { pipeline } = await import('node:stream/promises');
    await pipeline(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream), out, { end: false });
  }
  delete<T = any>(path: string): Promise<T> {
    return this.request<T>('DELETE', path);
  }

  /** POSTs bytes as they are (a file to import), with the given content type. */
  upload<T = any>(path: string, bytes: Uint8Array, contentType: string, query?: Query): Promise<T> {
    return this.request<T>('POST', path, new RawBody(bytes, contentType), query);
  }

  async request<T>(method: string, path: string, body?: unknown, query?: Query): Promise<T> {
    const url = new URL(this.url + API_PREFIX + path);
    for (const [name, value] of Object.entries(query ?? {}))
      if (value !== undefined) url.searchParams.set(name, String(value));
    // The server's audit log tells the CLI's actions from other token uses by this agent.
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': `signpost-cli/${VERSION}` };
    if (this.token) headers['authorization'] = `Bearer ${this.token}`;
    const raw = body instanceof RawBody;
    if (body !== undefined) headers['content-type'] = raw ? body.contentType : 'application/json';
    let response: Response;
    try {
      const sent = body === undefined ? null : raw ? body.bytes : JSON.stringify(body);
      response = await fetch(url, { method, headers, body: sent as RequestInit['body'] });
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      throw new CliError(
        `Cannot reach the Signpost server at ${this.url} (${cause?.code ?? cause?.message ?? (error as Error).message})`,
        EXIT.environment,
      );
    }
    const text = await response.text();
    let parsed: unknown;
    if (text) {
      try {
        parsed = JSON.parse(text);
      } catch {
        if (response.ok)
          throw new CliError(
            `The server at ${this.url} answered ${method} ${url.pathname} with something that is not JSON`,
            EXIT.api,
          );
      }
    }
    if (!response.ok) {
      const problem = (parsed ?? {}) as { error?: string; details?: Array<{ field: string; message: string }> };
      const message = problem.error ?? `HTTP ${response.status} ${response.statusText}`;
      throw new ApiError(
        response.status,
        `${message} (HTTP ${response.status})`,
        problem.details ?? [],
        parsed ?? { error: message },
      );
    }
    return parsed as T;
  }
}
