/**
 * What a request log line may say about the URL. Secrets travel in URLs on several routes: the
 * Sentry SDKs put `sentry_key` in the query, board sign-in and e-mail links carry `token`, OAuth
 * redirects carry `code`, invites put their token in the path (`/api/v1/invites/<token>`,
 * `/app/invites/<token>`). Pino's `redact` cannot reach inside a string, so the request serializer
 * rewrites the URL before it is written: secret query values and secret path segments become
 * `[redacted]`, and anything shaped like one of our keys or tokens is redacted wherever it sits.
 */
import type { FastifyRequest } from 'fastify';

export const REDACTED = '[redacted]';

/** Query parameters whose value is a credential, whatever it looks like. */
const SECRET_QUERY_NAMES = new Set([
  'token',
  'code',
  'key',
  'api_key',
  'apikey',
  'x-api-key',
  'sentry_key',
  'sentry_secret',
  'access_token',
  'refresh_token',
  'id_token',
  'client_secret',
  'secret',
  'password',
  'signature',
  'sig',
]);

/** Path segments that follow one of these are tokens (the invite routes, the dashboard's too). */
const SECRET_AFTER_SEGMENT = new Set(['invites', 'invite', 'unsubscribe']);

/** Our own credentials (API keys, personal and OAuth tokens) and JWTs, wherever they appear. */
const CREDENTIAL_SHAPED =
  /svc_(?:live|test)_[A-Za-z0-9_]+|sp_[a-z]{2,3}_[A-Za-z0-9_-]+|eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_.-]+/g;

function redactQuery(query: string): string {
  return query
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      if (equals < 0) return pair;
      let name = pair.slice(0, equals);
      try {
        name = decodeURIComponent(name.replace(/\+/g, ' '));
      } catch {
        // An undecodable name is compared as sent.
      }
      return SECRET_QUERY_NAMES.has(name.toLowerCase()) ? `${pair.slice(0, equals)}=${REDACTED}` : pair;
    })
    .join('&');
}

function redactPath(path: string): string {
  const segments = path.split('/');
  for (let i = 1; i < segments.length; i++) {
    if (SECRET_AFTER_SEGMENT.has(segments[i - 1] ?? '') && segments[i] !== '') segments[i] = REDACTED;
  }
  return segments.join('/');
}

/** The URL as a log line may show it. */
export function redactUrl(url: string): string {
  const question = url.indexOf('?');
  const path = question < 0 ? url : url.slice(0, question);
  const redacted = question < 0 ? redactPath(path) : `${redactPath(path)}?${redactQuery(url.slice(question + 1))}`;
  return redacted.replace(CREDENTIAL_SHAPED, REDACTED);
}

/** Pino serializer for `req`: Fastify's default fields, with the URL redacted. */
export function serializeRequest(request: FastifyRequest): Record<string, unknown> {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
