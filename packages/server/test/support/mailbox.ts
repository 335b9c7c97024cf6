/**
 * A real SMTP server for tests (smtp-server), parsing every message it receives (mailparser).
 * Start it, give the server `SMTP_URL: mailbox.url`, then wait for messages and follow their links.
 */
import { SMTPServer } from 'smtp-server';
import { simpleParser } from 'mailparser';
import { createServer, type AddressInfo, type Socket } from 'node:net';

export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  /** Every http(s) link in the text part, in order. */
  links: string[];
  /** The raw header lines by lower-case name (unfolded, the value after `Name: `; the last one wins). */
  headers: Record<string, string>;
  messageId: string;
}

export interface Mailbox {
  url: string;
  messages: ReceivedMail[];
  /** The first message (already received or arriving within `timeoutMs`) that matches. */
  waitFor(match: (mail: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  /** The message to the address that has `count` earlier ones to it (0: the first). */
  nextTo(address: string, count?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

export async function startMailbox(): Promise<Mailbox> {
  const messages: ReceivedMail[] = [];
  const waiters = new Set<() => void>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          const text = parsed.text ?? '';
          messages.push({
            from: parsed.from?.text ?? '',
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()),
            subject: parsed.subject ?? '',
            text,
            html: typeof parsed.html === 'string' ? parsed.html : '',
            links: [...text.matchAll(/https?:\/\/\S+/g)].map((match) => match[0]),
            headers: Object.fromEntries(
              parsed.headerLines.map(({ key, line }) => [
                key,
                line
                  .slice(line.indexOf(':') + 1)
                  .replace(/\r?\n(?=[ \t])/g, '')
                  .trim(),
              ]),
            ),
            messageId: parsed.messageId ?? '',
          });
          for (const wake of waiters) wake();
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;

  const waitFor = (match: (mail: ReceivedMail) => boolean, timeoutMs = 5000) =>
    new Promise<ReceivedMail>((resolve, reject) => {
      const check = () => {
        const found = messages.find(match);
        if (!found) return false;
        waiters.delete(check);
        clearTimeout(timer);
        resolve(found);
        return true;
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(
          new Error(
            `no matching e-mail within ${timeoutMs} ms; received: ${messages.map((m) => `${m.to} ${m.subject}`).join('; ')}`,
          ),
        );
      }, timeoutMs);
      if (!check()) waiters.add(check);
    });

  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    waitFor,
    nextTo: (address, count = 0) => {
      const to = address.toLowerCase();
      return waitFor((mail) => messages.filter((m) => m.to.includes(to))[count] === mail);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A mail server that accepts connections and never greets: a send to it hangs until its process dies. */
export interface StalledMailServer {
  url: string;
  /** Whether a send has connected (and now hangs). */
  connected(): boolean;
  close(): Promise<void>;
}

export async function startStalledMailServer(): Promise<StalledMailServer> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    connected: () => sockets.size > 0,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
