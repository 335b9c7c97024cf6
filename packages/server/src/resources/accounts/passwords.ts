/** Passwords are hashed with Argon2id (@node-rs/argon2, prebuilt binaries, OWASP parameters). */
import { hash, verify } from '@node-rs/argon2';

const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 };
// Verified against when the account does not exist, so both answers take the same time.
const DUMMY = hash('signpost-dummy-password', OPTIONS);

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function passwordMatches(password: string, stored: string | null | undefined): Promise<boolean> {
  if (!stored) {
    await verify(await DUMMY, password).catch(() => false);
    return false;
  }
  return verify(stored, password).catch(() => false);
}
