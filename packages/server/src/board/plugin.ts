/**
 * The public board surface, at `/b/<slug>` (and at `/` of a project's custom domain, see
 * host-routing.ts): server-rendered pages that work without JavaScript. This plugin resolves the
 * project and its board, the reader (session cookie), the language, and guards every form post
 * (same origin and a CSRF token); the pages themselves live with their resources.
 */
import cookie from '@fastify/cookie';
import csrf from '@fastify/csrf-protection';
import formbody from '@fastify/formbody';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fromOwnOrigin } from '../http/same-origin.ts';
import { DatabaseUnavailableError, HttpError } from '../kernel/errors.ts';
import { BOARD_SESSION_COOKIE, findProjectForBoard, findSessionUser, settingsOfRow } from '../resources/board/index.ts';
import { BOARD_ASSETS, sendAsset } from '../routing/board/assets.ts';
import type { BoardContext, BoardDeps } from '../routing/board/context.ts';
import { sendErrorPage } from './error-page.ts';
import { BoardPageCache } from '../routing/board/page-cache.ts';
import { servedAtCustomDomain } from './host-routing.ts';
import { isBoardLocale, LOCALE_COOKIE, negotiateLocale, translator } from '../routing/board/i18n.ts';
import { CSRF_PLACEHOLDER, NONCE_PLACEHOLDER, securityHeaders } from '../routing/board/render.ts';
import { BOARD_ROUTES } from './routes.ts';

export const BOARD_PREFIX = '/b/:slug';
const FORM_LIMIT = 64 * 1024;

/** Paths a private board shows to readers who are not signed in: how to sign in, and the assets. */
const OPEN_ON_PRIVATE = /^\/(sign-in|sso|sign-out|unsubscribe|assets\/)/;

export async function boardSurface(app: FastifyInstance, options: Omit<BoardDeps, 'pages'>): Promise<void> {
  const deps: BoardDeps = { ...options, pages: new BoardPageCache(options.db) };
  const { db, config } = deps;
  await app.register(cookie);
  await app.register(formbody, { bodyLimit: FORM_LIMIT });
  await app.register(csrf, {
    cookieKey: 'signpost_board_csrf',
    cookieOpts: { path: '/', sameSite: 'lax', httpOnly: true, secure: config.accounts.secureCookies },
  });
  app.decorateRequest('board', null as unknown as BoardContext);

  app.addHook('onRequest', async (request, reply) => {
    securityHeaders(reply);
    const slug = (request.params as { slug?: string }).slug ?? '';
    const row = await findProjectForBoard(db, slug);
    const atDomain = servedAtCustomDomain(request.raw);
    const base = atDomain ? '' : `/b/${encodeURIComponent(slug)}`;
    const chosen = (request.query as Record<string, unknown>)['lang'];
    if (isBoardLocale(chosen)) {
      reply.setCookie(LOCALE_COOKIE, chosen, { path: base || '/', sameSite: 'lax', maxAge: 365 * 86_400 });
    }
    const locale = negotiateLocale(request.headers, isBoardLocale(chosen) ? chosen : request.cookies[LOCALE_COOKIE]);
    const origin = atDomain ? `${request.protocol}://${request.host}` : `${config.publicUrl}${base}`;
    const token = request.cookies[BOARD_SESSION_COOKIE];
    const user = row && token ? await findSessionUser(db, row.id, token) : undefined;
    const path = request.url.slice(atDomain ? 0 : base.length) || '/';
    request.board = {
      project: { id: row?.id ?? '', slug, name: row?.name ?? '' },
      board: settingsOfRow(row?.id ?? '', row),
      base,
      origin,
      locale,
      t: translator(locale),
      user: user ? { id: user.id, email: user.email, name: user.name, spam: Number(user.spam) === 1 } : undefined,
      visitorId: undefined,
      nonce: NONCE_PLACEHOLDER,
      csrfToken: () => CSRF_PLACEHOLDER,
      here: path.replace(/[?&]lang=[^&]*/, ''),
    };
    const ctx = request.board;
    // Unsubscribing works whatever the board's settings: a follower keeps that right when the
    // board is turned off or made private (the route checks its own token and project).
    if (/^\/unsubscribe(\?|$)/.test(path)) return;
    // A missing project, a board that is off, and (below) a private one are the same 404 to strangers.
    if (!row || !ctx.board.enabled) return sendErrorPage(request, reply, ctx, 404, 'error.notFoundText');
    if (ctx.board.private && !ctx.user && !OPEN_ON_PRIVATE.test(path)) {
      return reply.redirect(`${base}/sign-in?return=${encodeURIComponent(ctx.here)}`, 303);
    }
  });

  // Every form post must come from the board's own pages and carry the page's CSRF token.
  app.addHook('preHandler', (request, reply, done) => {
    if (request.method !== 'POST' || /\/unsubscribe$/.test(request.routeOptions.url ?? '')) return done();
    if (!fromOwnOrigin(request, config.publicUrl)) {
      void sendErrorPage(request, reply, request.board, 403, 'error.csrf');
      return;
    }
    app.csrfProtection(request, reply, done);
  });

  app.setErrorHandler((error: FastifyError, request, reply) => boardError(error, request, reply));
  app.setNotFoundHandler((request, reply) => sendErrorPage(request, reply, request.board, 404, 'error.notFoundText'));

  for (const asset of Object.values(BOARD_ASSETS)) {
    app.get(asset.path, (request, reply) => sendAsset(request, reply, asset));
  }
  for (const mount of BOARD_ROUTES) await mount(app, deps);
}

function boardError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const ctx = request.board;
  if (!ctx) {
    // The board itself could not be read (its context comes from the database).
    if (error instanceof DatabaseUnavailableError)
      return reply.headers(error.headers).code(503).type('text/plain').send(error.message);
    return reply.code(500).type('text/plain').send('Internal error');
  }
  if (error.code === 'FST_CSRF_INVALID_TOKEN' || error.code === 'FST_CSRF_MISSING_SECRET') {
    return sendErrorPage(request, reply, ctx, 403, 'error.csrf');
  }
  const status = error instanceof HttpError ? error.statusCode : (error.statusCode ?? 500);
  if (status === 404) return sendErrorPage(request, reply, ctx, 404, 'error.notFoundText');
  if (status === 429 || status === 503) {
    if (error instanceof HttpError) reply.headers(error.headers);
    return sendErrorPage(request, reply, ctx, status, status === 429 ? 'error.tooMany' : 'error.unavailable');
  }
  if (status >= 400 && status < 500) return sendErrorPage(request, reply, ctx, status, 'error.badRequest');
  request.log.error({ err: error }, 'board request failed');
  return sendErrorPage(request, reply, ctx, 500, 'error.server');
}
