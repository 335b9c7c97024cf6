/**
 * The board's changelog (`/changelog`): published entries, newest first, each with the public
 * idea it shipped. Descriptions were sanitised when written (sanitize.ts).
 */
import type { FastifyInstance } from 'fastify';
import { type BoardDeps, type MessageKey, queryText } from '../../board/context.ts';
import { DateText, html, Page } from '../../board/ui.ts';
import { listBoardChangelog } from './read-model.ts';

const PAGE_SIZE = 20;

export async function boardChangelogPage(app: FastifyInstance, { db, pages }: BoardDeps): Promise<void> {
  app.get('/changelog', (request, reply) =>
    pages.send(request, reply, async () => {
      const ctx = request.board;
      const requested = Number.parseInt(queryText(request, 'page'), 10);
      const pageNumber = Number.isSafeInteger(requested) && requested > 0 && requested <= 10_000 ? requested : 1;
      const { entries, total } = await listBoardChangelog(db, ctx.project.id, PAGE_SIZE, (pageNumber - 1) * PAGE_SIZE);
      const label = (entry: (typeof entries)[number]) =>
        entry.statusLabel === null
          ? ctx.t(`status.${entry.statusKey}` as MessageKey)
          : ctx.t(`changelog.status.${entry.statusKey}` as MessageKey);
      return html`<${Page} ctx=${ctx} title=${ctx.t('changelog.title')} section="changelog">
        <h1>${ctx.t('changelog.title')}</h1>
        ${entries.length === 0 ? html`<p>${ctx.t('changelog.empty')}</p>` : null}
        ${entries.map(
          (entry) =>
            html`<article class="entry" id=${entry.id}>
              <h2>${entry.summary}</h2>
              <div class="meta">
                <span class="badge">${label(entry)}</span>
                <${DateText} ctx=${ctx} iso=${entry.publishedAt} />
              </div>
              <div class="content" dangerouslySetInnerHTML=${{ __html: entry.description }}></div>
              ${
                entry.idea
                  ? html`<p>
                      ${ctx.t('changelog.ideas')}:${' '}
                      <a href=${`${ctx.base}/ideas/${encodeURIComponent(entry.idea.id)}`}>${entry.idea.title}</a>
                    </p>`
                  : null
              }
            </article>`,
        )}
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
}
