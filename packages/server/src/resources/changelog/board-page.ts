/**
 * The board's changelog (`/changelog`): published entries, newest first, each with the idea it
 * shipped. Descriptions were sanitised when written (sanitize.ts).
 */
import type { FastifyInstance } from 'fastify';
import { type BoardDeps, type MessageKey, queryText, sendPage } from '../../board/context.ts';
import { DateText, html, Page } from '../../board/ui.ts';
import { listChangelog } from './read-model.ts';

const PAGE_SIZE = 20;

export async function boardChangelogPage(app: FastifyInstance, { db }: BoardDeps): Promise<void> {
  app.get('/changelog', async (request, reply) => {
    const ctx = request.board;
    const requested = Number.parseInt(queryText(request, 'page'), 10);
    const pageNumber = Number.isSafeInteger(requested) && requested > 0 && requested <= 10_000 ? requested : 1;
    const rows = await listChangelog(db, ctx.project.id, true, PAGE_SIZE + 1, (pageNumber - 1) * PAGE_SIZE);
    const entries = rows.slice(0, PAGE_SIZE);
    return sendPage(
      request,
      reply,
      html`<${Page} ctx=${ctx} title=${ctx.t('changelog.title')} section="changelog">
        <h1>${ctx.t('changelog.title')}</h1>
        ${entries.length === 0 ? html`<p>${ctx.t('changelog.empty')}</p>` : null}
        ${entries.map(
          (entry) =>
            html`<article class="entry" id=${entry.id}>
              <h2>${entry.summary}</h2>
              <div class="meta">
                <span class="badge">${entry.feature_id ? ctx.t(`status.${entry.f_status ?? 'done'}` as MessageKey) : ctx.t(`changelog.status.${entry.status_key}` as MessageKey)}</span>
                ${entry.published_at ? html`<${DateText} ctx=${ctx} iso=${entry.published_at} />` : null}
              </div>
              <div class="content" dangerouslySetInnerHTML=${{ __html: entry.description }}></div>
              ${
                entry.feature_id && entry.f_title
                  ? html`<p>
                    ${ctx.t('changelog.ideas')}:${' '}
                    <a href=${`${ctx.base}/ideas/${encodeURIComponent(entry.feature_id)}`}>${entry.f_title}</a>
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
            rows.length > PAGE_SIZE
              ? html`<a rel="next" href=${`${ctx.base}/changelog?page=${pageNumber + 1}`}>${ctx.t('ideas.next')}</a>`
              : html`<span></span>`
          }
        </nav>
      <//>`,
    );
  });
}
