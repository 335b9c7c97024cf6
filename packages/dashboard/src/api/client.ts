/**
 * The management API client, typed from the server's OpenAPI document (schema.gen.ts is written by
 * `npm run generate:api` from packages/server/test/fixtures/openapi/management.json, so a changed
 * route breaks this package's typecheck). The browser sends the session cookie; every request also
 * carries `X-Requested-With`, which the API requires of cookie-authenticated writes (CSRF).
 */
import createClient from 'openapi-fetch';
import type { components, paths } from './schema.gen.ts';

export const api = createClient<paths>({
  baseUrl: '/api/v1',
  credentials: 'same-origin',
  headers: { 'X-Requested-With': 'signpost-dashboard' },
});

export type Account = paths['/me']['get']['responses'][200]['content']['application/json']['account'];
export type Project = paths['/projects/{projectId}']['get']['responses'][200]['content']['application/json'];
export type ApiErrorBody = components['schemas']['def-0'];

/** An API refusal, in words: the server's message and, per field, what is wrong with it. */
export class ApiError extends Error {
  readonly status: number;
  /** The server's stable error code (`SeatLimit`, `Conflict`, …): what the screens branch on. */
  readonly code: string | undefined;
  readonly fields: Record<string, string>;
  constructor(status: number, body: Partial<ApiErrorBody> | undefined) {
    super(body?.error ?? describeStatus(status));
    this.status = status;
    this.code = body?.code;
    this.fields = {};
    for (const detail of body?.details ?? []) {
      // `/email` or `email`: the field's name without the JSON pointer slash.
      const field = detail.field.replace(/^\/?(body\/)?/, '');
      this.fields[field] = detail.message;
    }
  }
}

function describeStatus(status: number): string {
  if (status === 401) return 'You are not signed in';
  if (status === 403) return 'You may not do this';
  if (status === 429) return 'Too many attempts; wait a moment and try again';
  if (status >= 500) return 'The server could not answer; try again in a moment';
  return `The request failed (HTTP ${status})`;
}

/** The data of an openapi-fetch answer, or an ApiError in words. Network failures say so too. */
export async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  let result: { data?: T; error?: unknown; response: Response };
  try {
    result = await call;
  } catch {
    throw new Error('The server cannot be reached; check your connection and try again');
  }
  if (!result.response.ok) throw new ApiError(result.response.status, result.error as Partial<ApiErrorBody>);
  return result.data as T;
}

export const ME_KEY = ['me'] as const;

/** The signed-in account, or null when nobody is signed in. */
export async function fetchMe(): Promise<Account | null> {
  try {
    return (await unwrap(api.GET('/me'))).account;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}
