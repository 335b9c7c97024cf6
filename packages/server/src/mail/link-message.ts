/** The shape of every e-mail that asks its reader to open one link: paragraphs, then the link. */
import type { MailMessage } from './mailer.ts';
import { escapeHtml } from '../kernel/html.ts';

export function linkMessage(to: string, subject: string, lines: string[], link: string, action: string): MailMessage {
  return {
    to,
    subject,
    text: `${lines.join('\n\n')}\n\n${action}: ${link}\n`,
    html: `${lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('')}<p><a href="${escapeHtml(link)}">${escapeHtml(action)}</a></p>`,
  };
}
