/** Who an identity-provider sign-in is: a linked identity, an account with the same address, or a new account. */
import { type Database, isTrue, type Queryable } from '../../db/database.ts';
import { BadRequestError, ConflictError } from '../../kernel/errors.ts';
import { revokeAccountTokens } from '../tokens/index.ts';
import type { ProviderIdentity } from './oidc-provider.ts';
import { createAccount } from './service.ts';
import { findIdentityAccountId, linkIdentity } from './store-identities.ts';
import { deleteAccountSessions } from './store-sessions.ts';
import {
  dropPasswordAndVerify,
  findAccount,
  findAccountByEmail,
  markVerified,
  normaliseEmail,
  type AccountRow,
} from './store.ts';

export interface ResolvedAccount {
  account: AccountRow;
  created: boolean;
}

const link = (tx: Queryable, identity: ProviderIdentity, accountId: string, email: string | undefined) =>
  linkIdentity(tx, identity.issuer, identity.subject, accountId, email);

/** Signs in through the identity provider: the identity's account, found, linked or created, in one transaction. */
export function signInWithIdentity(
  db: Database,
  identity: ProviderIdentity,
  claimProjects: readonly string[],
): Promise<ResolvedAccount> {
  return db.transaction((tx) => resolveAccount(tx, identity, claimProjects));
}

async function resolveAccount(
  tx: Queryable,
  identity: ProviderIdentity,
  claimProjects: readonly string[],
): Promise<ResolvedAccount> {
  const email = identity.email ? normaliseEmail(identity.email) : undefined;
  const linkedId = await findIdentityAccountId(tx, identity.issuer, identity.subject);
  if (linkedId) {
    const account = (await findAccount(tx, linkedId))!;
    if (identity.emailVerified && email === account.email && !isTrue(account.email_verified)) {
      await markVerified(tx, account.id);
      return { account: (await findAccount(tx, account.id))!, created: false };
    }
    return { account, created: false };
  }
  if (!email) throw new BadRequestError('The identity provider did not share an e-mail address');
  const existing = await findAccountByEmail(tx, email);
  if (existing) {
    // Only an address the provider vouches for may join an existing account.
    if (!identity.emailVerified) {
      throw new ConflictError('An account with this e-mail address exists; sign in with its password');
    }
    if (!isTrue(existing.email_verified)) {
      // Whoever created the unverified account never proved the address: their password, sessions
      // and tokens go, so an account made with someone else's address cannot be taken over later.
      await dropPasswordAndVerify(tx, existing.id);
      await deleteAccountSessions(tx, existing.id);
      await revokeAccountTokens(tx, existing.id);
    }
    await link(tx, identity, existing.id, email);
    return { account: (await findAccount(tx, existing.id))!, created: false };
  }
  const account = await createAccount(tx, {
    email,
    name: identity.name,
    passwordHash: null,
    verified: identity.emailVerified,
    claimProjects,
  });
  await link(tx, identity, account.id, email);
  return { account, created: true };
}
