import { hash, timingSafeEqual } from 'node:crypto';
import { randomToken } from '../ids.ts';

export type KeyEnvironment = 'live' | 'test';

export const KEY_PREFIX: Record<KeyEnvironment, string> = { live: 'svc_live_', test: 'svc_test_' };
/** The public part of a key used to find its row; the rest is only ever compared by hash. */
const LOOKUP_LENGTH = 12;

export interface ParsedKey {
  environment: KeyEnvironment;
  lookup: string;
}

export function parseApiKey(key: string): ParsedKey | undefined {
  for (const environment of ['live', 'test'] as const) {
    const prefix = KEY_PREFIX[environment];
    if (key.startsWith(prefix) && key.length >= prefix.length + LOOKUP_LENGTH + 8 && key.length <= 200) {
      return { environment, lookup: key.slice(prefix.length, prefix.length + LOOKUP_LENGTH) };
    }
  }
  return undefined;
}

/** The SHA-256 of the whole key, in hex: what is stored, and what a presented key is compared by. */
export function hashApiKey(key: string): string {
  return hash('sha256', key);
}

/**
 * Constant-time comparison of a presented key against the stored hash (hex, or its bytes).
 * The digest is taken as hex and decoded: measured, that is cheaper than asking for a Buffer.
 */
export function apiKeyMatches(key: string, storedHash: string | Buffer): boolean {
  const presented = Buffer.from(hashApiKey(key), 'hex');
  const stored = typeof storedHash === 'string' ? Buffer.from(storedHash, 'hex') : storedHash;
  return presented.length === stored.length && timingSafeEqual(presented, stored);
}

export function generateApiKey(environment: KeyEnvironment): string {
  return KEY_PREFIX[environment] + randomToken(LOOKUP_LENGTH + 32);
}

export function lookupOf(key: string): string {
  const parsed = parseApiKey(key);
  if (!parsed) throw new Error('not an API key');
  return parsed.lookup;
}
