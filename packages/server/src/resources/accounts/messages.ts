/** The texts of the e-mails accounts receive. Every link is absolute, built from PUBLIC_URL. */
import type { MailMessage } from '../../mail/mailer.ts';

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function message(to: string, subject: string, lines: string[], link: string, action: string): MailMessage {
  return {
    to,
    subject,
    text: `${lines.join('\n\n')}\n\n${action}: ${link}\n`,
    html: `${lines.map((line) => `<p>${escape(line)}</p>`).join('')}<p><a href="${escape(link)}">${escape(action)}</a></p>`,
  };
}

export function verificationMessage(to: string, link: string): MailMessage {
  return message(to, 'Verify your e-mail address for Signpost', [
    'Welcome to Signpost. Please confirm that this is your e-mail address.',
    'The link works for 48 hours. If you did not sign up, ignore this message.',
  ], link, 'Verify my e-mail address');
}

export function signUpAttemptMessage(to: string, link: string): MailMessage {
  return message(to, 'Someone tried to sign up for Signpost with your address', [
    'Someone (perhaps you) tried to create a Signpost account with this address, which already has one. No new account was made.',
    'If it was you, sign in with your password, or reset it if you forgot it. If it was not, ignore this message: your account is unchanged.',
  ], link, 'Sign in or reset your password');
}

export function passwordResetMessage(to: string, link: string): MailMessage {
  return message(to, 'Reset your Signpost password', [
    'Someone (hopefully you) asked to reset the password of the Signpost account with this address.',
    'The link works for one hour, once. If you did not ask, ignore this message: your password stays as it is.',
  ], link, 'Choose a new password');
}

export function inviteMessage(to: string, link: string, teamName: string, inviter: string, role: string): MailMessage {
  return message(to, `You are invited to ${teamName} on Signpost`, [
    `${inviter} invited you to join the team ${teamName} on Signpost as ${role === 'admin' ? 'an admin' : 'a member'}.`,
    'The invitation works for 7 days. Open the link, sign in or sign up, and accept it.',
  ], link, 'Open the invitation');
}
