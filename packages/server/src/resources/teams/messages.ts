/** The invite e-mail. Its link is absolute, built from PUBLIC_URL. */
import { linkMessage as message } from '../../mail/link-message.ts';
import type { MailMessage } from '../../mail/mailer.ts';

export function inviteMessage(to: string, link: string, teamName: string, inviter: string, role: string): MailMessage {
  return message(
    to,
    `You are invited to ${teamName} on Signpost`,
    [
      `${inviter} invited you to join the team ${teamName} on Signpost as ${role === 'admin' ? 'an admin' : 'a member'}.`,
      'The invitation works for 7 days. Open the link, sign in or sign up, and accept it.',
    ],
    link,
    'Open the invitation',
  );
}
