/**
 * What every board page and form handler knows about the request: the project and its board
 * settings, where the board lives (`base`: `/b/<slug>`, or `` at a custom domain), the reader's
 * language, who is signed in, and the per-response CSP nonce. Resources' board pages import this
 * file and ui.ts; the board surface (`src/board/`) only mounts them.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { hitSlidingWindow, rateLimitHeaders } from '../../http/rate-limit.ts';
import { TooManyRequestsError } from '../../kernel/errors.ts';
import type { BoardPageCache } from './page-cache.ts';
import type { BoardSettings } from '../../resources/board/index.ts';
import type { BoardLocale, Translate } from './i18n.ts';

/** What the board's route modules get when mounted. */
export interface BoardDeps {
  db: Database;
  config: Config;
  mailer: Mailer;
  /** Rendered pages for anonymous readers, until the next commit (page-cache.ts). */
  pages: BoardPageCache;
}

export { VISITOR_COOKIE } from './cookies.ts';

export interface BoardProject {
  id: string;
  slug: string;
  name: string;
}

export interface BoardUser {
  id: string;
  email: string;
  name: string | null;
  /** Marked as spam by the team: what they post is held for moderation. */
  spam: boolean;
}

export interface BoardContext {
  project: BoardProject;
  board: BoardSettings;
  /** Path prefix of every board link: `/b/<slug>`, or `` when the board answers at a custom domain's root. */
  base: string;
  /** The board's absolute address (no trailing slash), for feeds and e-mails. */
  origin: string;
  locale: BoardLocale;
  t: Translate;
  user: BoardUser | undefined;
  /** An anonymous visitor's id (cookie), for anonymous votes; undefined until one is needed. */
  visitorId: string | undefined;
  /** The CSP nonce of this response (a placeholder render.ts fills). */
  nonce: string;
  /** The CSRF token of a form on this page (a placeholder render.ts fills). */
  csrfToken(): string;
  /** The current path below `base` with its query (for "return here after signing in"). */
  here: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    board: BoardContext;
  }
}

/** After a form post: back to a page (303, so a reload does not post again). */
export function redirectTo(reply: FastifyReply, ctx: BoardContext, path: string): FastifyReply {
  return reply.redirect(`${ctx.base}${path}` || '/', 303);
}

export { sendPage } from './render.ts';

/** A form field's text: the first value when a field is sent twice, '' when absent. */
export function formText(request: FastifyRequest, name: string): string {
  const body = request.body as Record<string, unknown> | undefined;
  const value = body?.[name];
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first : '';
}

/** A query parameter's text, the first value when repeated, '' when absent. */
export function queryText(request: FastifyRequest, name: string): string {
  const value = (request.query as Record<string, unknown>)[name];
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first : '';
}

/** Whether the caller is the board's script asking for JSON instead of a page. */
export function wantsJson(request: FastifyRequest): boolean {
  return /application\/json/.test(request.headers.accept ?? '');
}

/** A path on this board that is safe to return to after a form (never another site). */
export function safeReturn(raw: string, fallback = '/'): string {
  return raw.startsWith('/') && !raw.startsWith('//') && !raw.includes('\\') ? raw : fallback;
}
export type { MessageKey } from './messages/en.ts';
export { translator } from './i18n.ts';

/**
 * Counts one action against a board limit (a sliding window in the database, exact across
 * processes); a refused one throws the 429 the board's error page shows.
 */
export async function limitBoardAction(
  db: Database,
  bucket: string,
  limit: { max: number; windowMs: number },
): Promise<void> {
  const state = await hitSlidingWindow(db, bucket, limit.max, limit.windowMs);
  if (!state.allowed) throw new TooManyRequestsError('Too many requests', rateLimitHeaders(state));
}
