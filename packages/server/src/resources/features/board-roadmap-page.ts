/**
 * The board's roadmap (`/roadmap`): the columns the team chose (board settings: statuses, order,
 * labels; by default every public status but Declined), public ideas only.
 */
import type { FastifyInstance } from 'fastify';
import type { BoardDeps } from '../../board/context.ts';
import { html, Page } from '../../board/ui.ts';
import { boardScope } from './board-idea-page.ts';
import { ideaPath } from './board-ideas-page.ts';
import { listRoadmapItems } from './store.ts';

const ROADMAP_LIMIT = 600;

export async function boardRoadmapPage(app: FastifyInstance, { db, pages }: BoardDeps): Promise<void> {
  app.get('/roadmap', (request, reply) =>
    pages.send(request, reply, async () => {
      const ctx = request.board;
      const columns = ctx.board.roadmapColumns;
      const items = await listRoadmapItems(
        db,
        boardScope(ctx),
        columns.map((column) => column.status),
        ROADMAP_LIMIT,
      );
      return html`<${Page} ctx=${ctx} title=${ctx.t('roadmap.title')} section="roadmap">
        <h1>${ctx.t('roadmap.title')}</h1>
        <div class="columns">
          ${columns.map(({ status, label }) => {
            const column = items.filter((item) => item.status === status);
            return html`<section class="column" aria-labelledby=${`col-${status}`}>
              <h2 id=${`col-${status}`}>${label ?? ctx.t(`status.${status}`)} <span class="muted">(${column.length})</span></h2>
              ${
                column.length === 0
                  ? html`<p class="muted">${ctx.t('roadmap.empty')}</p>`
                  : html`<ul>
                    ${column.map(
                      (item) =>
                        html`<li>
                          <a href=${`${ctx.base}${ideaPath(item.id)}`}>${item.title}</a>
                          <div class="meta">${ctx.t('ideas.votes', { count: item.vote_count })}</div>
                        </li>`,
                    )}
                  </ul>`
              }
            </section>`;
          })}
        </div>
      <//>`;
    }),
  );
}
