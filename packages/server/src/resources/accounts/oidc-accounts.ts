/** Who an identity-provider sign-in is: a linked identity, an account with the same address, or a new account. */
import { isTrue, type Queryable } from '../../db/database.ts';
import { HttpError } from '../../kernel/errors.ts';
import { nowIso } from '../../kernel/ids.ts';
import { deleteAccountSessions } from './store-sessions.ts';
import { createAccount, findAccount, findAccountByEmail, normaliseEmail, type AccountRow } from './store.ts';
import type { ProviderIdentity } from './oidc-provider.ts';

export interface ResolvedAccount {
  account: AccountRow;
  created: boolean;
}

async function link(tx: Queryable, identity: ProviderIdentity, accountId: string, email: string | undefined): Promise<void> {
  await tx.run('INSERT INTO account_identities (issuer, subject, account_id, email, created_at) VALUES (?, ?, ?, ?, ?)', [
    identity.issuer, identity.subject, accountId, email ?? null, nowIso(),
  ]);
}

export async function resolveAccount(tx: Queryable, identity: ProviderIdentity, claimProjects: readonly string[]): Promise<ResolvedAccount> {
  const email = identity.email ? normaliseEmail(identity.email) : undefined;
  const linked = await tx.get<{ account_id: string }>('SELECT account_id FROM account_identities WHERE issuer = ? AND subject = ?', [
    identity.issuer, identity.subject,
  ]);
  if (linked) {
    const account = (await findAccount(tx, linked.account_id))!;
    if (identity.emailVerified && email === account.email && !isTrue(account.email_verified)) {
      await tx.run('UPDATE accounts SET email_verified = 1 WHERE id = ?', [account.id]);
      return { account: (await findAccount(tx, account.id))!, created: false };
    }
    return { account, created: false };
  }
  if (!email) throw new HttpError(400, 'BadRequest', 'The identity provider did not share an e-mail address');
  const existing = await findAccountByEmail(tx, email);
  if (existing) {
    // Only an address the provider vouches for may join an existing account.
    if (!identity.emailVerified) {
      throw new HttpError(409, 'Conflict', 'An account with this e-mail address exists; sign in with its password');
    }
    if (!isTrue(existing.email_verified)) {
      // Whoever created the unverified account never proved the address: their password, sessions
      // and tokens go, so an account made with someone else's address cannot be taken over later.
      await tx.run('UPDATE accounts SET password_hash = NULL, email_verified = 1 WHERE id = ?', [existing.id]);
      await deleteAccountSessions(tx, existing.id);
      await tx.run('UPDATE personal_access_tokens SET revoked_at = ? WHERE account_id = ? AND revoked_at IS NULL', [nowIso(), existing.id]);
    }
    await link(tx, identity, existing.id, email);
    return { account: (await findAccount(tx, existing.id))!, created: false };
  }
  const account = await createAccount(tx, { email, name: identity.name, passwordHash: null, verified: identity.emailVerified, claimProjects });
  await link(tx, identity, account.id, email);
  return { account, created: true };
}
