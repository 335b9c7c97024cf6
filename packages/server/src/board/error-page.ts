/** The board's error pages: the same shell, a heading and one sentence. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { BoardContext } from '../routing/board/context.ts';
import { sendPage } from '../routing/board/render.ts';
import { html, Page } from '../routing/board/ui.ts';
import type { MessageKey } from '../routing/board/messages/en.ts';

export function sendErrorPage(
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: BoardContext,
  status: number,
  text: MessageKey,
): FastifyReply {
  const heading = status === 404 ? ctx.t('error.notFound') : ctx.t(text);
  return sendPage(
    request,
    reply,
    html`<${Page} ctx=${ctx} title=${heading} section="none">
      <h1>${heading}</h1>
      ${status === 404 ? html`<p>${ctx.t(text)}</p>` : null}
      <p><a href=${`${ctx.base}/`}>${ctx.t('idea.back')}</a></p>
    <//>`,
    status,
  );
}
