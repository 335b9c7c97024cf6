/**
 * The board's roadmap as an iframe page (`/embed/roadmap`, issue 35): the same public columns as
 * `/roadmap`, without the board's header, footer and script, so it works without JavaScript.
 * Links open the board in a new tab, never inside the host's frame, and the page has no form: a
 * framing site can show it but not act through it. Which sites may frame it is the server's
 * `BOARD_EMBED_FRAME_ANCESTORS` (CSP `frame-ancestors`, default any); every other board page keeps
 * `frame-ancestors 'none'`.
 */
import type { FastifyInstance } from 'fastify';
import type { VNode } from 'preact';
import type { BoardDeps } from '../../routing/board/context.ts';
import { EmbedPage, html } from '../../routing/board/ui.ts';
import { RoadmapColumns, roadmapItems } from './board-roadmap-page.ts';

export async function boardRoadmapEmbed(app: FastifyInstance, { db, pages, config }: BoardDeps): Promise<void> {
  const ancestors = config.boardEmbedFrameAncestors;
  app.get(
    '/embed/roadmap',
    {
      // The board's pages forbid framing; this one allows the configured ancestors instead.
      onSend: async (_request, reply, payload) => {
        const policy = reply.getHeader('content-security-policy');
        if (typeof policy === 'string')
          reply.header(
            'content-security-policy',
            policy.replace("frame-ancestors 'none'", `frame-ancestors ${ancestors}`),
          );
        reply.removeHeader('x-frame-options');
        return payload;
      },
    },
    (request, reply) =>
      pages.send(request, reply, async () => {
        const ctx = request.board;
        const { columns, items } = await roadmapItems(db, ctx);
        const name = ctx.board.title ?? ctx.project.name;
        const title = `${ctx.t('roadmap.title')} · ${name}`;
        return html`<${EmbedPage} ctx=${ctx} title=${title}>
          <h1>${title}</h1>
          <${RoadmapColumns} ctx=${ctx} columns=${columns} items=${items} newTab />
          <p><a href=${`${ctx.base}/roadmap`} target="_blank" rel="noopener">${name}</a></p>
        <//>` as VNode;
      }),
  );
}
