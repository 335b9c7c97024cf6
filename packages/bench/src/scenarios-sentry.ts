/** What Sentry SDKs send to the ingest endpoint: error events in envelopes, and sessions. */
import { expectStatus, fail, type Scenario } from './scenario-kit.ts';

/**
 * A Sentry SDK's error report: an envelope with one event, sent as a browser SDK sends it
 * (text/plain, the key in the query). `new`: a new error each time (a new group per event, as
 * errors-new); `repeat`: the same error again and again, as an app in a crash loop sends it (the
 * traffic an ingest endpoint has to survive). Issue 17: 15 % of the ceiling.
 */
export function envelopeScenario(key: string, ingestNumber: number, runId: string, kind: 'new' | 'repeat'): Scenario {
  const path = `/api/${ingestNumber}/envelope/?sentry_key=${key}&sentry_version=7`;
  const envelopeOf = (value: string) => {
    const event = JSON.stringify({
      event_id: 'e4b5a1a0c0d94f6f9b6c1d2e3f405162',
      timestamp: 1_790_000_000,
      platform: 'javascript',
      level: 'error',
      release: 'web@1.4.2',
      environment: 'production',
      exception: {
        values: [
          {
            type: 'TypeError',
            value,
            stacktrace: {
              frames: [
                { function: 'submit', abs_path: 'https://app.example.com/checkout.js', lineno: 42, colno: 3 },
                { function: 'total', abs_path: 'https://app.example.com/checkout.js', lineno: 10, colno: 5 },
              ],
            },
          },
        ],
      },
      request: { url: 'https://app.example.com/checkout', headers: { 'User-Agent': 'Mozilla/5.0 Firefox/140.0' } },
    });
    return `{"event_id":"e4b5a1a0c0d94f6f9b6c1d2e3f405162"}\n{"type":"event"}\n${event}\n`;
  };
  const headers = { 'Content-Type': 'text/plain;charset=UTF-8' };
  const repeated = envelopeOf(`Bench envelope ${runId} repeated`);
  return {
    id: kind === 'new' ? 'envelope' : 'envelope-repeat',
    label: `POST /api/<n>/envelope/ (Sentry event, ${kind === 'new' ? 'new' : 'repeated'})`,
    request:
      kind === 'new'
        ? {
            method: 'POST',
            path,
            headers,
            uniqueBody: { parts: envelopeOf(`Bench envelope ${runId} #XXX`).split('XXX') },
          }
        : { method: 'POST', path, headers, body: repeated },
    target: { ratio: 0.15 },
    check: async (origin) => {
      const response = await fetch(`${origin}${path}`, {
        method: 'POST',
        headers,
        body: kind === 'new' ? envelopeOf(`Bench envelope ${runId} check`) : repeated,
      });
      const body = (await expectStatus(response, 200, 'POST envelope')) as { id?: string };
      if (body.id !== 'e4b5a1a0c0d94f6f9b6c1d2e3f405162') fail(`POST envelope answered id ${String(body.id)}`);
    },
  };
}

/**
 * A Sentry SDK's release health: an envelope with one `session` item that starts a new session
 * (a new `sid` and user each request, as page loads of a browser SDK send them), counted into the
 * session state, the hour's counts and the hour's users in one transaction. Issue 33: 20 % of the
 * ceiling on SQLite.
 */
export function sessionScenario(key: string, ingestNumber: number, runId: string): Scenario {
  const path = `/api/${ingestNumber}/envelope/?sentry_key=${key}&sentry_version=7`;
  const started = new Date().toISOString();
  const sessionOf = (id: string) =>
    `{}\n{"type":"session"}\n${JSON.stringify({
      sid: `bench-${runId}-${id}`,
      did: `user-${id}`,
      init: true,
      started,
      timestamp: started,
      status: 'ok',
      errors: 0,
      attrs: { release: 'web@1.4.2', environment: 'production' },
    })}\n`;
  const headers = { 'Content-Type': 'text/plain;charset=UTF-8' };
  return {
    id: 'sessions',
    label: 'POST /api/<n>/envelope/ (Sentry session, new)',
    request: { method: 'POST', path, headers, uniqueBody: { parts: sessionOf('XXX').split('XXX') } },
    target: { ratio: 0.2 },
    check: async (origin) => {
      const response = await fetch(`${origin}${path}`, { method: 'POST', headers, body: sessionOf('check') });
      await expectStatus(response, 200, 'POST envelope (session)');
    },
  };
}
