/** The e-mails of sign-up: the verification link, and the notice to an address that already has an account. */
import { hitSlidingWindow } from '../../http/rate-limit.ts';
import type { ManagementDeps } from '../../routing/management/context.ts';
import { verificationMessage, signUpAttemptMessage } from './messages.ts';
import { createLink, expireLinks } from './store-links.ts';
import { normaliseEmail, type AccountRow } from './store.ts';

/** Notices of sign-ups with an address that has an account: 3 an hour, so nobody can flood its inbox. */
const SIGN_UP_NOTICE_LIMIT = { max: 3, windowMs: 60 * 60 * 1000 };

export async function sendVerification({ db, config, mailer }: ManagementDeps, account: AccountRow): Promise<void> {
  await expireLinks(db, account.id, 'verify-email');
  const token = await createLink(db, account.id, 'verify-email', account.email);
  // The dashboard's page confirms the address by calling GET /auth/verify-email with the token.
  const link = `${config.publicUrl}/app/verify-email?token=${token}`;
  await mailer.send(verificationMessage(account.email, link));
}

/**
 * Tells the owner of an address that someone tried to sign up with it (the sign-up itself answers
 * as for a new address, so the answer reveals nothing). Beyond the hourly limit nothing is sent.
 */
export async function sendSignUpAttemptNotice({ db, config, mailer }: ManagementDeps, email: string): Promise<void> {
  const address = normaliseEmail(email);
  const limit = await hitSlidingWindow(
    db,
    `sign-up-notice:${address}`,
    SIGN_UP_NOTICE_LIMIT.max,
    SIGN_UP_NOTICE_LIMIT.windowMs,
  );
  if (!limit.allowed) return;
  await mailer.send(signUpAttemptMessage(address, `${config.publicUrl}/`));
}
