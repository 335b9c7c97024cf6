import { randomToken } from './ids.ts';

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

/** A key is a secret like any other: stored as its SHA-256, compared in constant time. */
export { hashSecret as hashApiKey, secretMatches as apiKeyMatches } from './secrets.ts';

export function generateApiKey(environment: KeyEnvironment): string {
  return KEY_PREFIX[environment] + randomToken(LOOKUP_LENGTH + 32);
}

export function lookupOf(key: string): string {
  const parsed = parseApiKey(key);
  if (!parsed) throw new Error('not an API key');
  return parsed.lookup;
}
