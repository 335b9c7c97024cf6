/** The texts of the e-mails accounts receive. Every link is absolute, built from PUBLIC_URL. */
import { linkMessage as message } from '../../mail/link-message.ts';
import type { MailMessage } from '../../mail/mailer.ts';

export function verificationMessage(to: string, link: string): MailMessage {
  return message(
    to,
    'Verify your e-mail address for Signpost',
    [
      'Welcome to Signpost. Please confirm that this is your e-mail address.',
      'The link works for 48 hours. If you did not sign up, ignore this message.',
    ],
    link,
    'Verify my e-mail address',
  );
}

export function signUpAttemptMessage(to: string, link: string): MailMessage {
  return message(
    to,
    'Someone tried to sign up for Signpost with your address',
    [
      'Someone (perhaps you) tried to create a Signpost account with this address, which already has one. No new account was made.',
      'If it was you, sign in with your password, or reset it if you forgot it. If it was not, ignore this message: your account is unchanged.',
    ],
    link,
    'Sign in or reset your password',
  );
}

export function passwordResetMessage(to: string, link: string): MailMessage {
  return message(
    to,
    'Reset your Signpost password',
    [
      'Someone (hopefully you) asked to reset the password of the Signpost account with this address.',
      'The link works for one hour, once. If you did not ask, ignore this message: your password stays as it is.',
    ],
    link,
    'Choose a new password',
  );
}
