import { createHash, timingSafeEqual } from 'node:crypto';
import { randomToken } from '../ids.ts';

/** A secret for a session, a link or a token: 43 characters from 62, about 256 bits. */
export function newSecret(length = 43): string {
  return randomToken(length);
}

/** Secrets are stored only as this hash. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** Constant-time comparison of a presented secret against a stored hash. */
export function secretMatches(secret: string, storedHash: string): boolean {
  const presented = Buffer.from(hashSecret(secret), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return presented.length === stored.length && timingSafeEqual(presented, stored);
}

export function isoIn(ms: number, from = Date.now()): string {
  return new Date(from + ms).toISOString();
}

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;
