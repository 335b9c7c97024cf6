/**
 * Accounts for management API tests: sign up (then sign in) or sign in over HTTP and get an `Api` client that
 * carries the session cookie and the CSRF header, checked against `/api/v1/openapi.json`.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Api, type ApiResponse } from './api.ts';
import type { Mailbox } from './mailbox.ts';
import { SIGN_UP_ANSWER } from '../../src/resources/accounts/index.ts';

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

export async function signUp(
  origin: string,
  options: { email?: string; password?: string; name?: string } = {},
): Promise<SignedIn> {
  const email = options.email ?? uniqueEmail();
  const password = options.password ?? 'correct horse battery staple';
  const response = await managementApi(origin).post('/auth/sign-up', {
    email,
    password,
    name: options.name ?? 'Test User',
  });
  assert.equal(response.status, 202, response.text);
  assert.deepEqual(response.body, { message: SIGN_UP_ANSWER });
  // Sign-up answers the same for a new and a taken address; signing in is what proves the account.
  return signIn(origin, email, password);
}

export async function signIn(origin: string, email: string, password: string): Promise<SignedIn> {
  const response = await managementApi(origin).post('/auth/sign-in', { email, password });
  assert.equal(response.status, 200, response.text);
  const cookie = sessionCookieOf(response);
  return { api: asSession(origin, cookie), account: response.body.account, email, password, cookie };
}

/** Follows the verification link of the account's newest verification e-mail, as a mail reader would. */
export async function verifyEmail(origin: string, mailbox: Mailbox, user: SignedIn): Promise<void> {
  const mail = await mailbox.waitFor((m) => m.to.includes(user.email.toLowerCase()) && /Verify/.test(m.subject));
  // The link opens the dashboard's page, which calls this API route with the token.
  const link = new URL(mail.links.find((url) => url.includes('/app/verify-email?token='))!);
  const response = await fetch(`${origin}/api/v1/auth/verify-email${link.search}`);
  assert.equal(response.status, 200, await response.clone().text());
  user.account.verified = true;
}

export async function signUpVerified(
  origin: string,
  mailbox: Mailbox,
  options: { email?: string; name?: string } = {},
): Promise<SignedIn> {
  const user = await signUp(origin, options);
  await verifyEmail(origin, mailbox, user);
  return user;
}

/** The token of the newest invite e-mail to `email`. */
export async function inviteTokenFor(mailbox: Mailbox, email: string, count = 0): Promise<string> {
  const mails = () => mailbox.messages.filter((m) => m.to.includes(email.toLowerCase()) && /invited/.test(m.subject));
  await mailbox.waitFor(() => mails().length > count);
  const link = mails()[count]!.links.find((url) => url.includes('/app/invites/'))!;
  return new URL(link).pathname.split('/').pop()!;
}
