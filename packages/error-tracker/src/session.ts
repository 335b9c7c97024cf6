/**
 * Release health from Signpost's own tracker: one session per page load (browsers) or process
 * (Node.js), sent to POST /sessions when it starts, at its first error, and when it ends, with the
 * status Sentry's SDKs use: `ok`, then `exited` at the end, or `crashed` (Node.js: an uncaught
 * exception or rejection) / `unhandled` (browsers: an uncaught error, which does not crash the page).
 * A handled error (`captureException`) keeps the session `ok` with `errors` counted; the server
 * counts it as errored. Needs `release`; off with `sessions: false`.
 */

export type SessionStatus = 'ok' | 'exited' | 'crashed' | 'unhandled';

export interface SessionUpdate {
  sid: string;
  did?: string;
  status: SessionStatus;
  errors: number;
  started: string;
  release: string;
  environment?: string;
}

export interface Session {
  /** An error was captured: `handled` from captureException, else an uncaught one. */
  error(handled: boolean): Promise<void> | undefined;
  /** Ends the session (`exited` unless it crashed); later calls send nothing. */
  end(): Promise<void> | undefined;
}

export function startSession(options: {
  sid: string;
  release: string;
  environment: string | undefined;
  user: () => string | undefined;
  unhandledStatus: 'crashed' | 'unhandled';
  send: (update: SessionUpdate) => Promise<void>;
}): Session {
  let status: SessionStatus = 'ok';
  let errors = 0;
  let ended = false;
  const started = new Date().toISOString();
  const send = () => {
    const update: SessionUpdate = { sid: options.sid, status, errors, started, release: options.release };
    const did = options.user();
    if (did) update.did = did.slice(0, 200);
    if (options.environment) update.environment = options.environment;
    return options.send(update);
  };
  void send();
  return {
    error(handled) {
      if (ended || status !== 'ok') return undefined;
      errors++;
      if (!handled) status = options.unhandledStatus;
      // The first handled error and any uncaught one change what the server counts.
      return !handled || errors === 1 ? send() : undefined;
    },
    end() {
      if (ended) return undefined;
      ended = true;
      if (status === 'ok') status = 'exited';
      return send();
    },
  };
}
