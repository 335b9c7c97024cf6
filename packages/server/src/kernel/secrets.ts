/**
 * Secrets (API keys, session ids, link and OAuth tokens) are stored only as their SHA-256 and
 * compared with a presented one in constant time. One implementation for every kind.
 */
import { hash, timingSafeEqual } from 'node:crypto';
import { randomToken } from './ids.ts';

/** A secret for a session, a link or a token: 43 characters from 62, about 256 bits. */
export function newSecret(length = 43): string {
  return randomToken(length);
}

/**
 * The SHA-256 of a secret, in hex: what is stored. One-shot `hash()`: measured cheaper than a
 * `createHash` chain on the key check of every request.
 */
export function hashSecret(secret: string): string {
  return hash('sha256', secret);
}

/**
 * Constant-time comparison of a presented secret against the stored hash (hex, or its bytes).
 * The digest is taken as hex and decoded: measured, that is cheaper than asking for a Buffer.
 */
export function secretMatches(secret: string, storedHash: string | Buffer): boolean {
  const presented = Buffer.from(hashSecret(secret), 'hex');
  const stored = typeof storedHash === 'string' ? Buffer.from(storedHash, 'hex') : storedHash;
  return presented.length === stored.length && timingSafeEqual(presented, stored);
}
