/**
 * A host app's signed user token outside the board (issue 35: "What's new" in the app): the same
 * HS256 JWT the board's `/sso` takes, signed with the project's SSO secret, so one token format
 * identifies a person everywhere. Only the subject is read here; an unsigned, forged, expired or
 * stale token is refused with 401, never trusted.
 */
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { UnauthorizedError } from '../../kernel/errors.ts';
import { boardSsoSecret } from './sso-secret.ts';

/** A page keeps its token while it is open: a day, longer than the board's ten-minute sign-in link. */
const MAX_AGE = '24h';
export const USER_TOKEN_MAX_LENGTH = 4096;
const jose = () => import('jose');

const refused = () => new UnauthorizedError('Invalid user token');

/** The token's `sub` (the host app's own user id, 1 to 200 characters). */
export async function verifyHostUserToken(
  db: Database,
  config: Pick<Config, 'secretKey'>,
  projectId: string,
  token: string,
): Promise<string> {
  if (token.length === 0 || token.length > USER_TOKEN_MAX_LENGTH) throw refused();
  const secret = await boardSsoSecret(db, config, projectId);
  if (!secret) throw refused();
  const { jwtVerify, errors } = await jose();
  try {
    const { payload } = await jwtVerify(token, new TextEncoder().encode(secret), {
      algorithms: ['HS256'],
      requiredClaims: ['sub', 'exp', 'iat'],
      maxTokenAge: MAX_AGE,
    });
    const { sub } = payload;
    if (typeof sub !== 'string' || sub.length === 0 || sub.length > 200) throw refused();
    return sub;
  } catch (error) {
    if (error instanceof errors.JOSEError) throw refused();
    throw error;
  }
}
