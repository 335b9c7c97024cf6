/**
 * A tiny HTTP proxy in front of a real Signpost test server, to play the network: `ok` passes
 * requests through, `down` drops connections (a network error), `503` answers a server fault, and
 * `hang` never answers (a timeout). Used by the SDK tests of every package (`sdkTestEnv({ proxy: true })` in env.ts starts one).
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type ProxyMode = 'ok' | 'down' | '503' | 'hang';

export interface TestProxy {
  /** `http://127.0.0.1:<port>/api/public/v1` */
  baseUrl: string;
  mode: ProxyMode;
  /** Requests seen, whatever the mode. */
  hits: number;
  /** Answer the next `n` requests with `status` (default 503), then pass through. */
  failNext(n: number, options?: { status?: number; retryAfter?: string }): void;
  close(): Promise<void>;
}

export async function startProxy(targetOrigin: string): Promise<TestProxy> {
  const target = new URL(targetOrigin);
  let failures = 0;
  let failRetryAfter: string | undefined;
  let failStatus = 503;
  const hanging = new Set<import('node:http').ServerResponse>();
  const state: TestProxy = {
    baseUrl: '',
    mode: 'ok',
    hits: 0,
    failNext(n, options = {}) {
      failures = n;
      failRetryAfter = options.retryAfter;
      failStatus = options.status ?? 503;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server: Server = createServer((req, res) => {
    state.hits++;
    if (state.mode === 'down') {
      req.socket.destroy();
      return;
    }
    if (state.mode === 'hang') {
      hanging.add(res);
      return;
    }
    if (state.mode === '503' || failures > 0) {
      if (failures > 0) failures--;
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        'access-control-allow-origin': '*',
      };
      if (failRetryAfter) headers['retry-after'] = failRetryAfter;
      const status = state.mode === '503' ? 503 : failStatus;
      res
        .writeHead(status, headers)
        .end(JSON.stringify({ error: status === 429 ? 'Too many requests' : 'Service unavailable' }));
      return;
    }
    const upstream = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: target.host },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  state.baseUrl = `http://127.0.0.1:${port}/api/public/v1`;
  return state;
}
