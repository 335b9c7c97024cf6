/**
 * Accounts for management API tests: sign up or sign in over HTTP and get an `Api` client that
 * carries the session cookie and the CSRF header, checked against `/api/v1/openapi.json`.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Api, type ApiResponse } from './api.ts';

export const MANAGEMENT_PREFIX = '/api/v1';

export interface SignedIn {
  /** The management API as this account (session cookie + `X-Requested-With`). */
  api: Api;
  account: { id: string; email: string; name: string; verified: boolean; admin: boolean };
  email: string;
  password: string;
  cookie: string;
}

export function managementApi(origin: string): Api {
  return new Api(origin + MANAGEMENT_PREFIX);
}

/** `name=value` of the session cookie a response sets. */
export function sessionCookieOf(response: ApiResponse | Response): string {
  const cookie = response.headers.getSetCookie().find((line) => line.startsWith('signpost_session='));
  assert.ok(cookie, 'response sets the session cookie');
  return cookie.split(';')[0]!;
}

export function uniqueEmail(label = 'user'): string {
  return `${label}-${randomBytes(4).toString('hex')}@example.com`;
}

export function asSession(origin: string, cookie: string): Api {
  return managementApi(origin).withHeaders({ cookie, 'x-requested-with': 'signpost-tests' });
}

export async function signUp(origin: string, options: { email?: string; password?: string; name?: string } = {}): Promise<SignedIn> {
  const email = options.email ?? uniqueEmail();
  const password = options.password ?? 'correct horse battery staple';
  const response = await managementApi(origin).post('/auth/sign-up', { email, password, name: options.name ?? 'Test User' });
  assert.equal(response.status, 201, response.text);
  const cookie = sessionCookieOf(response);
  return { api: asSession(origin, cookie), account: response.body.account, email, password, cookie };
}

export async function signIn(origin: string, email: string, password: string): Promise<SignedIn> {
  const response = await managementApi(origin).post('/auth/sign-in', { email, password });
  assert.equal(response.status, 200, response.text);
  const cookie = sessionCookieOf(response);
  return { api: asSession(origin, cookie), account: response.body.account, email, password, cookie };
}
