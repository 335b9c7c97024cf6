/**
 * Who uses the in-app widget (issue 35): the host app's server signs `{ sub, email, name?,
 * company? }` as an HS256 JWT with the board's SSO secret (the same secret and claims as the
 * board's `/sso`), the widget sends it in the `X-Signpost-User` header, and every widget call
 * checks it. The person is the board user with that address, so a vote from the widget and one
 * from the board are the same voter. A token that does not verify is refused outright (401), never
 * treated as anonymous, so a forged token cannot quietly act as someone.
 */
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { UnauthorizedError } from '../../kernel/errors.ts';
import { profileOfClaims } from './sso-claims.ts';
import { boardSsoSecret } from './sso-secret.ts';
import { type BoardUserRow, findBoardUserByEmail, upsertBoardUser } from './store-users.ts';

/** The header the widget and "What's new" send the token in. */
export const IDENTITY_HEADER = 'x-signpost-user';
export const IDENTITY_TOKEN_MAX_LENGTH = 4096;
/**
 * A widget page may stay open for hours (unlike the board's one-shot `/sso` redirect), so a token
 * lives up to a day; its own `exp` still applies and is required.
 */
const IDENTITY_MAX_AGE = '24h';
const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}\.[^\s@]{2,}$/;
const NAME_MAX = 100;
const jose = () => import('jose');

export interface WidgetIdentity {
  externalId: string;
  /** Absent from a token that only names the reader (What's new needs no more than `sub`). */
  email: string | undefined;
  name: string | undefined;
  claims: Record<string, unknown>;
}

const refused = () => new UnauthorizedError('Invalid identity token');

/** The verified claims of a widget identity token; throws UnauthorizedError for anything else. */
export async function verifyIdentityToken(
  db: Database,
  config: Pick<Config, 'secretKey'>,
  projectId: string,
  token: string,
): Promise<WidgetIdentity> {
  const secret = await boardSsoSecret(db, config, projectId);
  if (!secret || token.length === 0 || token.length > IDENTITY_TOKEN_MAX_LENGTH) throw refused();
  const { jwtVerify, errors } = await jose();
  let claims: Record<string, unknown>;
  try {
    ({ payload: claims } = await jwtVerify(token, new TextEncoder().encode(secret), {
      algorithms: ['HS256'],
      requiredClaims: ['sub', 'exp', 'iat'],
      maxTokenAge: IDENTITY_MAX_AGE,
    }));
  } catch (error) {
    if (error instanceof errors.JOSEError) throw refused();
    throw error;
  }
  const { sub, email, name } = claims;
  if (typeof sub !== 'string' || sub.length === 0 || sub.length > 200) throw refused();
  if (email !== undefined && (typeof email !== 'string' || email.length > 320 || !EMAIL.test(email))) throw refused();
  return {
    externalId: sub,
    email: email as string | undefined,
    name: typeof name === 'string' ? name.trim().slice(0, NAME_MAX) || undefined : undefined,
    claims,
  };
}

/** The board user of a verified token, made or brought up to date (for writes: votes, ideas). */
export async function identifyWidgetUser(
  db: Database,
  config: Pick<Config, 'secretKey'>,
  projectId: string,
  token: string,
): Promise<BoardUserRow> {
  const identity = await verifyIdentityToken(db, config, projectId, token);
  // A person who votes or files is a board user, found by e-mail: the token must carry it.
  if (!identity.email) throw refused();
  // The widget knows no language: a board user keeps theirs.
  const locale = (await findBoardUserByEmail(db, projectId, identity.email))?.locale ?? 'en';
  return upsertBoardUser(
    db,
    projectId,
    { email: identity.email, name: identity.name, locale, externalId: identity.externalId },
    profileOfClaims(identity.claims),
  );
}

/** The board user of a verified token if there is one yet (for reads, which write nothing). */
export async function findWidgetUser(
  db: Database,
  config: Pick<Config, 'secretKey'>,
  projectId: string,
  token: string,
): Promise<BoardUserRow | undefined> {
  const identity = await verifyIdentityToken(db, config, projectId, token);
  return identity.email ? findBoardUserByEmail(db, projectId, identity.email) : undefined;
}
