/**
 * The board's roadmap (`/roadmap`): the columns the team chose (board settings: statuses, order,
 * labels; by default every public status but Declined), public ideas only.
 */
import type { FastifyInstance } from 'fastify';
import type { BoardContext, BoardDeps } from '../../routing/board/context.ts';
import { html, Page } from '../../routing/board/ui.ts';
import { boardScope } from './board-idea-page.ts';
import { ideaPath } from './board-ideas-page.ts';
import { listRoadmapItems } from './store.ts';

const ROADMAP_LIMIT = 600;

/** The public ideas of the board's roadmap columns (the team's choice of statuses and order). */
export async function roadmapItems(db: BoardDeps['db'], ctx: BoardContext) {
  const columns = ctx.board.roadmapColumns;
  const statuses = columns.map((column) => column.status);
  return { columns, items: await listRoadmapItems(db, boardScope(ctx), statuses, ROADMAP_LIMIT) };
}

/**
 * The columns of the roadmap, one section a status with its ideas; shared by `/roadmap` and the
 * iframe page, whose links open a new tab (`newTab`) rather than navigate the host's frame.
 */
export function RoadmapColumns({
  ctx,
  columns,
  items,
  newTab = false,
}: {
  ctx: BoardContext;
  columns: BoardContext['board']['roadmapColumns'];
  items: Awaited<ReturnType<typeof listRoadmapItems>>;
  newTab?: boolean;
}) {
  const target = newTab ? { target: '_blank', rel: 'noopener' } : {};
  return html`<div class="columns">
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
                    <a href=${`${ctx.base}${ideaPath(item.id)}`} ...${target}>${item.title}</a>
                    <div class="meta">
                      ${ctx.t('ideas.votes', { count: item.vote_count })}
                      ${
                        item.status === 'done' && item.released_in
                          ? html` · <span class="released-in" data-released-in=${item.released_in}>${ctx.t(
                              item.type === 'bug' ? 'idea.fixedIn' : 'idea.shippedIn',
                              { version: item.released_in },
                            )}</span>`
                          : null
                      }
                    </div>
                  </li>`,
              )}
            </ul>`
        }
      </section>`;
    })}
  </div>`;
}

export async function boardRoadmapPage(app: FastifyInstance, { db, pages }: BoardDeps): Promise<void> {
  app.get('/roadmap', (request, reply) =>
    pages.send(request, reply, async () => {
      const ctx = request.board;
      const { columns, items } = await roadmapItems(db, ctx);
      return html`<${Page} ctx=${ctx} title=${ctx.t('roadmap.title')} section="roadmap">
        <h1>${ctx.t('roadmap.title')}</h1>
        <${RoadmapColumns} ctx=${ctx} columns=${columns} items=${items} />
      <//>`;
    }),
  );
}
