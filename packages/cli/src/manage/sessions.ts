/**
 * E-mail and password sign-in for the CLI: a short browser-style session (cookie plus the CSRF
 * header) that creates a personal access token and then signs out, so only the token is kept.
 */
import { hostname } from 'node:os';
import { API_PREFIX, Client } from './client.ts';
import { ApiError, CliError, EXIT } from './errors.ts';
import type { Answer } from './api.ts';

type Account = Answer<'signIn'>['account'];

function sessionCookie(response: Response): string {
  const headers = response.headers as Headers & { getSetCookie?: () => string[] };
  const cookies = headers.getSetCookie
    ? headers.getSetCookie()
    : (response.headers.get('set-cookie') ?? '').split(/,(?=\s*[^;,=\s]+=)/);
  const pairs = cookies.map((cookie) => cookie.split(';')[0]!.trim()).filter((pair) => pair.includes('='));
  if (pairs.length === 0) throw new CliError('The server did not start a session', EXIT.api);
  return pairs.join('; ');
}

async function call(url: string, path: string, body: unknown, cookie?: string): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (cookie) Object.assign(headers, { cookie, 'x-requested-with': 'signpost-cli' });
  try {
    return await fetch(url + API_PREFIX + path, { method: 'POST', headers, body: JSON.stringify(body) });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause;
    throw new CliError(
      `Cannot reach the Signpost server at ${url} (${cause?.code ?? (error as Error).message})`,
      EXIT.environment,
    );
  }
}

async function expect(response: Response, status: number): Promise<any> {
  const body = (await response.json().catch(() => ({}))) as {
    error?: string;
    details?: Array<{ field: string; message: string }>;
  };
  if (response.status !== status) {
    throw new ApiError(
      response.status,
      `${body.error ?? `HTTP ${response.status}`} (HTTP ${response.status})`,
      body.details ?? [],
      body,
    );
  }
  return body;
}

/**
 * Asks for an account. The server answers the same whether or not the address already had one
 * (it e-mails the address either way), so this only returns the server's message.
 */
export async function signUp(
  url: string,
  credentials: { email: string; password: string; name?: string | undefined },
): Promise<string> {
  const { message } = (await expect(await call(url, '/auth/sign-up', credentials), 202)) as { message: string };
  return message;
}

/** Signs in, creates a personal access token named after this machine, and signs out. */
export async function tokenFromPassword(
  url: string,
  credentials: { email: string; password: string },
): Promise<{ token: string; account: Account }> {
  const started = await call(url, '/auth/sign-in', credentials);
  const { account } = (await expect(started, 200)) as { account: Account };
  const cookie = sessionCookie(started);
  const created = await call(url, '/me/tokens', { name: `signpost CLI (${hostname()})` }, cookie);
  const { token } = (await expect(created, 201)) as { token: string };
  await call(url, '/auth/sign-out', {}, cookie).catch(() => undefined);
  await new Client(url, token).get('/me');
  return { token, account };
}
