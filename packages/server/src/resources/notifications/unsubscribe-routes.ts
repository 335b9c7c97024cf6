/**
 * One-click unsubscribe from a follower e-mail, mounted under the board's prefix (`/b/:slug`):
 *
 * - `POST /unsubscribe?token=…`: what a mail client sends for `List-Unsubscribe-Post:
 *   List-Unsubscribe=One-Click` (RFC 8058), and what the button below sends. The token is the
 *   authority (it names the user and idea and is MACed for this board), so there is no session
 *   and no CSRF token; it ends the follow and answers a small page.
 * - `GET /unsubscribe?token=…`: the link in the e-mail; it changes nothing (mail scanners fetch
 *   links) and shows a button that POSTs.
 *
 * A token that is not this server's for this board: a 400 page, nothing changed.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { serverKey } from '../../db/instance-keys.ts';
import { escapeHtml } from '../../kernel/html.ts';
import { languageOf } from './messages.ts';
import { featureForNotice, projectIdBySlug } from './read-model.ts';
import { unfollow } from './store.ts';
import { readUnsubscribeToken } from './unsubscribe-token.ts';

export interface UnsubscribeDeps {
  db: Database;
  config: Config;
}

const TEXT = {
  en: {
    title: 'Unsubscribe',
    ask: (idea: string) => `Stop e-mails about ${idea}?`,
    thisIdea: 'this idea',
    button: 'Unsubscribe',
    done: (idea: string) => `You no longer follow ${idea} and will get no more e-mails about it.`,
    invalid: 'This unsubscribe link is not valid. Please use the link from the latest e-mail.',
    noBoard: 'There is no board at this address.',
  },
  de: {
    title: 'Abmelden',
    ask: (idea: string) => `Keine E-Mails mehr zu ${idea}?`,
    thisIdea: 'dieser Idee',
    button: 'Abmelden',
    done: (idea: string) => `Du folgst ${idea} nicht mehr und bekommst dazu keine E-Mails mehr.`,
    invalid: 'Dieser Abmeldelink ist ungültig. Bitte nimm den Link aus der neuesten E-Mail.',
    noBoard: 'Unter dieser Adresse gibt es kein Board.',
  },
};

type Texts = (typeof TEXT)['en'];

function textsFor(request: FastifyRequest): { language: 'en' | 'de'; t: Texts } {
  const language = languageOf(String(request.headers['accept-language'] ?? 'en'));
  return { language, t: TEXT[language] };
}

function page(reply: FastifyReply, status: number, language: string, title: string, body: string): FastifyReply {
  const nonce = randomBytes(16).toString('base64');
  return reply
    .code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header(
      'content-security-policy',
      `default-src 'none'; style-src 'nonce-${nonce}'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
    )
    .header('referrer-policy', 'no-referrer')
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'no-store')
    .send(
      `<!doctype html><html lang="${language}"><head><meta charset="utf-8">` +
        '<meta name="viewport" content="width=device-width, initial-scale=1">' +
        `<title>${escapeHtml(title)}</title><style nonce="${nonce}">` +
        ':root{color-scheme:light dark}body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem}' +
        'button{font:inherit;padding:.5rem 1rem;cursor:pointer}' +
        `</style></head><body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`,
    );
}

/** The token's follow, when the board exists and the token is this server's for it. */
async function resolve(
  { db, config }: UnsubscribeDeps,
  request: FastifyRequest,
): Promise<{ projectId: string; userId: string; featureId: string } | 'no-board' | 'invalid'> {
  const { slug } = request.params as { slug?: string };
  const { token } = request.query as { token?: unknown };
  const projectId = typeof slug === 'string' ? await projectIdBySlug(db, slug) : undefined;
  if (!projectId) return 'no-board';
  if (typeof token !== 'string') return 'invalid';
  const named = readUnsubscribeToken(await serverKey(db, config.secretKey), projectId, token);
  return named ? { projectId, ...named } : 'invalid';
}

/** The idea's title in quotes when it is public, else a neutral "this idea". */
async function ideaName(db: Database, projectId: string, featureId: string, t: Texts): Promise<string> {
  const feature = await featureForNotice(db, featureId);
  return feature?.public && feature.projectId === projectId ? `“${feature.title}”` : t.thisIdea;
}

export async function unsubscribeRoutes(app: FastifyInstance, deps: UnsubscribeDeps): Promise<void> {
  // Mail clients post `List-Unsubscribe=One-Click` form-encoded (or as multipart); the token in
  // the URL is all that counts, so the body is read as text and otherwise ignored.
  // (A board plugin that already parses forms keeps its own parser.)
  for (const type of ['application/x-www-form-urlencoded', 'multipart/form-data']) {
    if (app.hasContentTypeParser(type)) continue;
    app.addContentTypeParser(type, { parseAs: 'string', bodyLimit: 4096 }, (_request, body, done) => done(null, body));
  }

  const refuse = (reply: FastifyReply, request: FastifyRequest, outcome: 'no-board' | 'invalid') => {
    const { language, t } = textsFor(request);
    return outcome === 'no-board'
      ? page(reply, 404, language, t.title, `<p>${escapeHtml(t.noBoard)}</p>`)
      : page(reply, 400, language, t.title, `<p>${escapeHtml(t.invalid)}</p>`);
  };

  app.get('/unsubscribe', { schema: { hide: true } }, async (request, reply) => {
    const outcome = await resolve(deps, request);
    if (typeof outcome === 'string') return refuse(reply, request, outcome);
    const { language, t } = textsFor(request);
    const idea = await ideaName(deps.db, outcome.projectId, outcome.featureId, t);
    const token = (request.query as { token: string }).token;
    return page(
      reply,
      200,
      language,
      t.title,
      `<p>${escapeHtml(t.ask(idea))}</p>` +
        `<form method="post" action="?token=${escapeHtml(encodeURIComponent(token))}">` +
        '<input type="hidden" name="List-Unsubscribe" value="One-Click">' +
        `<button type="submit">${escapeHtml(t.button)}</button></form>`,
    );
  });

  app.post('/unsubscribe', { schema: { hide: true } }, async (request, reply) => {
    const outcome = await resolve(deps, request);
    if (typeof outcome === 'string') return refuse(reply, request, outcome);
    await unfollow(deps.db, outcome.featureId, outcome.userId);
    const { language, t } = textsFor(request);
    const idea = await ideaName(deps.db, outcome.projectId, outcome.featureId, t);
    return page(reply, 200, language, t.title, `<p>${escapeHtml(t.done(idea))}</p>`);
  });
}
