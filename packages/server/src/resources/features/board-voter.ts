/** Who votes on the board, for the idea page and the ideas list. */
import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { VISITOR_COOKIE } from '../../routing/board/context.ts';

/** Who votes: the signed-in user, or (when the board allows it) an anonymous visitor's cookie. */
export function voterOf(request: FastifyRequest, reply: FastifyReply, create: boolean): string | undefined {
  const ctx = request.board;
  if (ctx.user) return `board:${ctx.user.id}`;
  if (!ctx.board.anonymousVotes) return undefined;
  let visitor = request.cookies[VISITOR_COOKIE];
  if (!visitor || !/^[A-Za-z0-9_-]{22}$/.test(visitor)) {
    if (!create) return undefined;
    visitor = randomBytes(16).toString('base64url');
    reply.setCookie(VISITOR_COOKIE, visitor, {
      path: ctx.base || '/',
      httpOnly: true,
      sameSite: 'lax',
      maxAge: 365 * 86_400,
    });
  }
  return `anon:${visitor}`;
}
