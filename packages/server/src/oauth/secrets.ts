import { createHash, timingSafeEqual } from 'node:crypto';
import { randomToken } from '../kernel/ids.ts';

/** Prefixes make leaked secrets recognisable (and tell access tokens from API keys at a glance). */
export const PREFIX = {
  accessToken: 'sp_at_',
  refreshToken: 'sp_rt_',
  code: 'sp_ac_',
  clientSecret: 'sp_cs_',
  consent: '',
} as const;

export function newSecret(kind: keyof typeof PREFIX): string {
  return PREFIX[kind] + randomToken(43);
}

/** PKCE S256 (RFC 7636): BASE64URL(SHA256(verifier)) equals the challenge. */
export function pkceMatches(verifier: string, challenge: string): boolean {
  if (!/^[A-Za-z0-9\-._~]{43,128}$/.test(verifier)) return false;
  const computed = Buffer.from(createHash('sha256').update(verifier).digest('base64url'));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}
