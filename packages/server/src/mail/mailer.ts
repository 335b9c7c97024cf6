/**
 * Outgoing e-mail. With `SMTP_URL` set, messages go out over SMTP (nodemailer); without it, the
 * development transport writes each message as an `.eml` file under `<DATA_DIR>/mail/` and logs
 * where, so a developer can open it in any mail client.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import { newId } from '../kernel/ids.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  /** Sends the message; rejects when the transport refuses it. */
  send(message: MailMessage): Promise<void>;
  close(): void;
}

export function createMailer(config: Config, log: FastifyBaseLogger): Mailer {
  const from = config.accounts.mailFrom;
  if (config.accounts.smtpUrl) {
    const transport = nodemailer.createTransport(config.accounts.smtpUrl);
    return {
      async send(message) {
        await transport.sendMail({ from, ...message });
      },
      close: () => transport.close(),
    };
  }
  const dir = join(config.dataDir, 'mail');
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(message) {
      const info = await transport.sendMail({ from, ...message });
      mkdirSync(dir, { recursive: true });
      const file = join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${newId('mail')}.eml`);
      writeFileSync(file, info.message as Buffer);
      log.info({ file, to: message.to, subject: message.subject }, 'no SMTP_URL set: e-mail written to a file');
    },
    close: () => transport.close(),
  };
}
