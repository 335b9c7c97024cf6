/**
 * The board's changelog (`/changelog`): published entries, newest first, each with the public
 * ideas it shipped; and each entry's permalink page (`/changelog/<id>`), which the ideas it shipped
 * ("Shipped in") and the feeds link. Descriptions were sanitised when written (sanitize.ts).
 */
import type { FastifyInstance } from 'fastify';
import { type BoardContext, type BoardDeps, type MessageKey, queryText } from '../../routing/board/context.ts';
import { DateText, html, Page } from '../../routing/board/ui.ts';
import { NotFoundError } from '../../kernel/errors.ts';
import { type BoardChangelogEntry, listBoardChangelog } from './read-model.ts';

const PAGE_SIZE = 20;

export const entryPath = (ctx: BoardContext, entryId: string) => `${ctx.base}/changelog/${encodeURIComponent(entryId)}`;

function label(ctx: BoardContext, entry: BoardChangelogEntry): string {
  return entry.statusLabel === null
    ? ctx.t(`status.${entry.statusKey}` as MessageKey)
    : ctx.t(`changelog.status.${entry.statusKey}` as MessageKey);
}

/** One entry: its summary (a link to its permalink in the list; the page's heading on its own page). */
function entryArticle(ctx: BoardContext, entry: BoardChangelogEntry, alone: boolean) {
  return html`<article class="entry" id=${entry.id}>
    ${alone ? html`<h1>${entry.summary}</h1>` : html`<h2><a href=${entryPath(ctx, entry.id)}>${entry.summary}</a></h2>`}
    <div class="meta">
      <span class="badge">${label(ctx, entry)}</span>
      <${DateText} ctx=${ctx} iso=${entry.publishedAt} />
    </div>
    <div class="content" dangerouslySetInnerHTML=${{ __html: entry.description }}></div>
    ${
      entry.ideas.length > 0
        ? html`<p>
            ${ctx.t('changelog.ideas')}:${' '}
            ${entry.ideas.map(
              (idea, index) =>
                html`${index > 0 ? ', ' : ''}<a href=${`${ctx.base}/ideas/${encodeURIComponent(idea.id)}`}
                    >${idea.title}</a
                  >`,
            )}
          </p>`
        : null
    }
  </article>`;
}

export async function boardChangelogPage(app: FastifyInstance, { db, pages }: BoardDeps): Promise<void> {
  app.get('/changelog', (request, reply) =>
    pages.send(request, reply, async () => {
      const ctx = request.board;
      const requested = Number.parseInt(queryText(request, 'page'), 10);
      const pageNumber = Number.isSafeInteger(requested) && requested > 0 && requested <= 10_000 ? requested : 1;
      const { entries, total } = await listBoardChangelog(db, ctx.project.id, PAGE_SIZE, (pageNumber - 1) * PAGE_SIZE);
      return html`<${Page} ctx=${ctx} title=${ctx.t('changelog.title')} section="changelog">
        <h1>${ctx.t('changelog.title')}</h1>
        ${entries.length === 0 ? html`<p>${ctx.t('changelog.empty')}</p>` : null}
        ${entries.map((entry) => entryArticle(ctx, entry, false))}
        <nav class="pager" aria-label=${ctx.t('changelog.title')}>
          ${
            pageNumber > 1
              ? html`<a rel="prev" href=${`${ctx.base}/changelog${pageNumber === 2 ? '' : `?page=${pageNumber - 1}`}`}
                  >${ctx.t('ideas.previous')}</a
                >`
              : html`<span></span>`
          }
          ${
            pageNumber * PAGE_SIZE < total
              ? html`<a rel="next" href=${`${ctx.base}/changelog?page=${pageNumber + 1}`}>${ctx.t('ideas.next')}</a>`
              : html`<span></span>`
          }
        </nav>
      <//>`;
    }),
  );

  app.get('/changelog/:entryId', (request, reply) =>
    pages.send(request, reply, async () => {
      const ctx = request.board;
      const { entryId } = request.params as { entryId: string };
      const { entries } = await listBoardChangelog(db, ctx.project.id, 1, 0, entryId);
      const entry = entries[0];
      if (!entry) throw new NotFoundError();
      return html`<${Page} ctx=${ctx} title=${entry.summary} section="changelog">
        <p><a href=${`${ctx.base}/changelog`}>${ctx.t('changelog.title')}</a></p>
        ${entryArticle(ctx, entry, true)}
      <//>`;
    }),
  );
}
