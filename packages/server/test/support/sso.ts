/**
 * An HS256 token as a host app's server signs it with the project's SSO secret (the board's sign-in
 * and the widget's identify): `claims` as given, issued `age` seconds ago, valid for `ttl` seconds.
 */
import { SignJWT } from 'jose';

export async function ssoToken(
  secret: string,
  claims: Record<string, unknown>,
  options: { age?: number; ttl?: number } = {},
): Promise<string> {
  const now = Math.floor(Date.now() / 1000) - (options.age ?? 0);
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuedAt(now)
    .setExpirationTime(now + (options.ttl ?? 300))
    .sign(new TextEncoder().encode(secret));
}
