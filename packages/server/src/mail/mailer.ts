/**
 * Outgoing e-mail. With `SMTP_URL` set, messages go out over SMTP (nodemailer); without it, the
 * development transport writes each message as an `.eml` file under `<DATA_DIR>/mail/` and logs
 * where, so a developer can open it in any mail client.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Transporter } from 'nodemailer';
import type { Config } from '../config.ts';
import { newId } from '../kernel/ids.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Extra headers, e.g. `List-Unsubscribe` (RFC 2369, RFC 8058). */
  headers?: Record<string, string>;
  /** The Message-ID (`<id@domain>`); a message sent again keeps the same one. */
  messageId?: string;
}

export interface Mailer {
  /** Sends the message; rejects when the transport refuses it. */
  send(message: MailMessage): Promise<void>;
  close(): void;
}

export interface MailerOptions {
  /**
   * Caps nodemailer's SMTP timeouts (connect, greeting, socket inactivity; by default two
   * minutes, 30 seconds and ten minutes), e.g. to end a send well within a lease.
   */
  timeoutMs?: number;
}

/**
 * nodemailer, loaded with the first message: about 20 MB that a server which sends no mail (most
 * of them, most of the time) need not hold.
 */
async function loadNodemailer() {
  return (await import('nodemailer')).default;
}

/** A transport made on first use and kept; `close` closes it if it was made. */
function lazyTransport(make: (nodemailer: Awaited<ReturnType<typeof loadNodemailer>>) => Transporter) {
  let transport: Promise<Transporter> | undefined;
  return {
    get: () => {
      transport ??= loadNodemailer().then(make);
      return transport;
    },
    close: () => void transport?.then((made) => made.close()),
  };
}

export function createMailer(config: Config, log: FastifyBaseLogger, options: MailerOptions = {}): Mailer {
  const from = config.accounts.mailFrom;
  const smtpUrl = config.accounts.smtpUrl;
  if (smtpUrl) {
    const timeout = options.timeoutMs;
    const transport = lazyTransport((nodemailer) =>
      timeout
        ? nodemailer.createTransport({
            url: smtpUrl,
            connectionTimeout: timeout,
            greetingTimeout: timeout,
            socketTimeout: timeout,
          })
        : nodemailer.createTransport(smtpUrl),
    );
    return {
      async send(message) {
        await (await transport.get()).sendMail({ from, ...message });
      },
      close: transport.close,
    };
  }
  const dir = join(config.dataDir, 'mail');
  const transport = lazyTransport((nodemailer) =>
    nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }),
  );
  return {
    async send(message) {
      const info = await (await transport.get()).sendMail({ from, ...message });
      mkdirSync(dir, { recursive: true });
      const file = join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${newId('mail')}.eml`);
      writeFileSync(file, info.message as Buffer);
      log.info({ file, to: message.to, subject: message.subject }, 'no SMTP_URL set: e-mail written to a file');
    },
    close: transport.close,
  };
}
