/** Passwords are hashed with Argon2id (@node-rs/argon2, prebuilt binaries, OWASP parameters). */
// Loaded on the first password (a native library, and the dummy hash below holds 19 MB while it
// is computed): a server whose team signs in with OIDC or tokens never loads it.
import type * as Argon2 from '@node-rs/argon2';
import { lazyModule } from '../../kernel/lazy-module.ts';

const argon2 = lazyModule<typeof Argon2>('@node-rs/argon2', import.meta.url);
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 };
// Verified against when the account does not exist, so both answers take the same time.
let dummy: Promise<string> | undefined;

export function hashPassword(password: string): Promise<string> {
  return argon2().hash(password, OPTIONS);
}

export async function passwordMatches(password: string, stored: string | null | undefined): Promise<boolean> {
  if (!stored) {
    dummy ??= argon2().hash('signpost-dummy-password', OPTIONS);
    await argon2()
      .verify(await dummy, password)
      .catch(() => false);
    return false;
  }
  return argon2()
    .verify(stored, password)
    .catch(() => false);
}
