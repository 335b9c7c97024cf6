/**
 * A local HTTP server that receives webhooks for tests: it records every request (headers, raw
 * body, time) and answers as told per path: `/ok/…` 204, `/fail/<n>/…` 500 for the first n
 * requests then 204, `/slow/<n>/…` hangs (past any timeout) for the first n then 204,
 * `/down/…` 500 always.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface ReceivedWebhook {
  path: string;
  headers: Record<string, string>;
  body: string;
  at: number;
  /** What the receiver answered (0: it never answered). */
  answered: number;
}

export interface WebhookReceiver {
  origin: string;
  received: ReceivedWebhook[];
  /** Requests to paths starting with `prefix`. */
  to(prefix: string): ReceivedWebhook[];
  /** Waits until `count` requests to `prefix` have arrived. */
  waitFor(prefix: string, count?: number, timeoutMs?: number): Promise<ReceivedWebhook[]>;
  close(): Promise<void>;
}

/** Verifies the Standard Webhooks signature with the `standardwebhooks` library; returns the parsed body. */
export function verified(secret: string, request: ReceivedWebhook): any {
  return new Webhook(secret).verify(request.body, request.headers);
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const seen = new Map<string, number>();
  const hanging = new Set<IncomingMessage>();
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      const entry: ReceivedWebhook = {
        path,
        headers: Object.fromEntries(
          Object.entries(request.headers).map(([name, value]) => [
            name,
            Array.isArray(value) ? value.join(',') : (value ?? ''),
          ]),
        ),
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
        answered: 0,
      };
      received.push(entry);
      const count = (seen.get(path) ?? 0) + 1;
      seen.set(path, count);
      const [, mode, n] = path.split('/');
      const answer = (status: number) => {
        entry.answered = status;
        response.writeHead(status, { 'content-type': 'text/plain' }).end(status >= 300 ? 'receiver says no' : '');
      };
      if (mode === 'down') return answer(500);
      if (mode === 'fail' && count <= Number(n)) return answer(500);
      if (mode === 'slow' && count <= Number(n)) {
        hanging.add(request);
        return;
      }
      answer(mode === 'ok' || mode === 'fail' || mode === 'slow' ? 204 : 404);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const to = (prefix: string) => received.filter((request) => request.path.startsWith(prefix));
  return {
    origin: `http://127.0.0.1:${port}`,
    received,
    to,
    async waitFor(prefix, count = 1, timeoutMs = 15_000) {
      const end = Date.now() + timeoutMs;
      while (to(prefix).length < count) {
        if (Date.now() > end) {
          throw new Error(`timed out waiting for ${count} webhooks to ${prefix} (got ${to(prefix).length})`);
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return to(prefix);
    },
    close: async () => {
      for (const request of hanging) request.socket.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
