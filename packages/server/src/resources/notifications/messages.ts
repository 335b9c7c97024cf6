/**
 * The follower e-mails, in the recipient's language (English and German; anything else reads
 * English): subject, text and HTML (every value escaped), the link to the idea and the
 * unsubscribe link, also given as List-Unsubscribe headers for one-click unsubscribing (RFC 8058).
 */
import { type MessageKey, translator } from '../../routing/board/context.ts';
import { escapeHtml } from '../../kernel/html.ts';
import type { MailMessage } from '../../mail/mailer.ts';
import type { NotificationPayload } from './store.ts';

type Language = 'en' | 'de';

const TEXT = {
  en: {
    statusSubject: (title: string, to: string) => `“${title}” is now ${to}`,
    statusLine: (title: string, from: string, to: string) => `The status of “${title}” changed from ${from} to ${to}.`,
    shippedSubject: (title: string) => `Shipped: “${title}”`,
    shippedLine: (title: string) => `“${title}” has shipped.`,
    response: 'Response from the team',
    open: 'Open the idea',
    why: (board: string) => `You get this e-mail because you follow this idea on the ${board} board.`,
    unsubscribe: 'Unsubscribe from this idea',
  },
  de: {
    statusSubject: (title: string, to: string) => `„${title}“ ist jetzt ${to}`,
    statusLine: (title: string, from: string, to: string) =>
      `Der Status von „${title}“ hat sich von ${from} zu ${to} geändert.`,
    shippedSubject: (title: string) => `Veröffentlicht: „${title}“`,
    shippedLine: (title: string) => `„${title}“ ist veröffentlicht.`,
    response: 'Antwort des Teams',
    open: 'Idee öffnen',
    why: (board: string) => `Du bekommst diese E-Mail, weil du dieser Idee auf dem Board ${board} folgst.`,
    unsubscribe: 'Dieser Idee nicht mehr folgen',
  },
} satisfies Record<Language, unknown>;

export function languageOf(locale: string): Language {
  return locale.toLowerCase().startsWith('de') ? 'de' : 'en';
}

/** The status as the board names it, in the board's catalogs (routing/board/messages). */
const statusLabel = (language: Language, status: string) => {
  const key = `status.${status}` as MessageKey;
  const label = translator(language)(key);
  return label === undefined ? status : label;
};

export interface NoticeLinks {
  idea: string;
  unsubscribe: string;
}

export function renderNotice(
  to: string,
  locale: string,
  boardName: string,
  payload: NotificationPayload,
  links: NoticeLinks,
): Omit<MailMessage, 'messageId'> {
  const language = languageOf(locale);
  const t = TEXT[language];
  let subject: string;
  const lines: string[] = [];
  if (payload.kind === 'status-changed') {
    const from = statusLabel(language, payload.from);
    const next = statusLabel(language, payload.to);
    subject = t.statusSubject(payload.title, next);
    lines.push(t.statusLine(payload.title, from, next));
    // The official response, marked as the team's ("Team" in the board's badge).
    if (payload.response) lines.push(`${t.response} (Team):`, payload.response);
  } else {
    subject = t.shippedSubject(payload.title);
    lines.push(t.shippedLine(payload.title), payload.summary);
  }
  const why = t.why(boardName);
  const text = `${lines.join('\n\n')}\n\n${t.open}: ${links.idea}\n\n-- \n${why}\n${t.unsubscribe}: ${links.unsubscribe}\n`;
  const html =
    `<!doctype html><html lang="${language}"><body>` +
    lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('') +
    `<p><a href="${escapeHtml(links.idea)}">${escapeHtml(t.open)}</a></p>` +
    `<hr><p style="font-size:small;color:#666">${escapeHtml(why)}<br>` +
    `<a href="${escapeHtml(links.unsubscribe)}">${escapeHtml(t.unsubscribe)}</a></p></body></html>`;
  return {
    to,
    // One line: a title never carries a line break into the header.
    subject: subject.replace(/[\r\n]+/g, ' '),
    text,
    html,
    headers: {
      'List-Unsubscribe': `<${links.unsubscribe}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}
