/**
 * The board's ideas page (`/`): public ideas sorted top, new or trending, filtered by status,
 * type and tag, searched with the database's full-text engine, paged. Also `/suggest`, the
 * similar ideas the submit form shows as a title is typed.
 */
import type { FastifyInstance } from 'fastify';
import { type BoardContext, type BoardDeps, queryText } from '../../routing/board/context.ts';
import { Csrf, DateText, html, Page, StatusBadge } from '../../routing/board/ui.ts';
import { voterOf } from './board-voter.ts';
import { votedAmong } from './store-votes.ts';
import { FILTER_STATUSES } from './schemas.ts';
import { type BoardIdea, listBoardIdeas, suggestSimilarIdeas } from './board-read-model.ts';
import { listTags } from '../tags/index.ts';

const PAGE_SIZE = 20;
const SORTS = ['top', 'new', 'trending'] as const;
type Sort = (typeof SORTS)[number];
/** The list shows `new` ideas too (decisions.md), so its status filter has every status. */
const LIST_STATUSES = ['new', ...FILTER_STATUSES] as const;
const TYPES = ['feature', 'bug'] as const;
const MAX_QUERY = 200;

export function ideaPath(id: string): string {
  return `/ideas/${encodeURIComponent(id)}`;
}

/**
 * One idea of the list, with its vote form when the reader may vote: a plain POST that comes back
 * to this list without the script; with it, the count and the button change in place.
 */
function IdeaRow({
  ctx,
  idea,
  voted,
  canVote,
  back,
}: {
  ctx: BoardContext;
  idea: BoardIdea;
  voted: boolean;
  canVote: boolean;
  back: string;
}) {
  const excerpt = idea.excerpt;
  const titleId = `title-${idea.id}`;
  return html`<li class="idea">
    <div class="votes">
      <strong data-vote-count=${idea.id}>${idea.voteCount}</strong>
      <span>${ctx.t('idea.voteCount')}</span>
      ${
        canVote
          ? html`<form method="post" action=${`${ctx.base}${ideaPath(idea.id)}/vote`} data-vote=${idea.id}>
              <${Csrf} ctx=${ctx} />
              <input type="hidden" name="intent" value=${voted ? 'remove' : 'add'} />
              <input type="hidden" name="return" value=${back} />
              <button type="submit" class="vote" aria-pressed=${voted ? 'true' : 'false'} aria-describedby=${titleId}>
                ${voted ? ctx.t('idea.unvote') : ctx.t('idea.vote')}
              </button>
            </form>`
          : null
      }
    </div>
    <div>
      <h2 id=${titleId}><a href=${`${ctx.base}${ideaPath(idea.id)}`}>${idea.title}</a></h2>
      <p>${excerpt}</p>
      <div class="meta">
        <${StatusBadge} ctx=${ctx} status=${idea.status} type=${idea.type} releasedIn=${idea.releasedIn} />
        <span>${ctx.t(idea.type === 'bug' ? 'type.bug' : 'type.feature')}</span>
        <span>${ctx.t('ideas.comments', { count: idea.commentCount })}</span>
        <${DateText} ctx=${ctx} iso=${idea.createdAt} />
        ${idea.tags.map((tag) => html`<span class="tag">${tag.name}</span>`)}
      </div>
    </div>
  </li>`;
}

interface ListState {
  q: string;
  sort: Sort;
  status: string;
  type: string;
  tag: string;
  page: number;
}

function listUrl(ctx: BoardContext, state: ListState, change: Partial<ListState>): string {
  const next = { ...state, ...change };
  const query = new URLSearchParams();
  if (next.q) query.set('q', next.q);
  if (next.sort !== 'top') query.set('sort', next.sort);
  if (next.status) query.set('status', next.status);
  if (next.type) query.set('type', next.type);
  if (next.tag) query.set('tag', next.tag);
  if (next.page > 1) query.set('page', String(next.page));
  const text = query.toString();
  return `${ctx.base}/${text ? `?${text}` : ''}`;
}

export async function boardIdeasPage(app: FastifyInstance, { db, pages }: BoardDeps): Promise<void> {
  app.get('/', (request, reply) =>
    pages.send(request, reply, async () => {
      const ctx = request.board;
      const sortText = queryText(request, 'sort');
      const statusText = queryText(request, 'status');
      const typeText = queryText(request, 'type');
      const pageNumber = Number.parseInt(queryText(request, 'page'), 10);
      const tags = await listTags(db, ctx.project.id);
      const tagText = queryText(request, 'tag');
      const state: ListState = {
        q: queryText(request, 'q').trim().slice(0, MAX_QUERY),
        sort: (SORTS as readonly string[]).includes(sortText) ? (sortText as Sort) : 'top',
        status: (LIST_STATUSES as readonly string[]).includes(statusText) ? statusText : '',
        type: (TYPES as readonly string[]).includes(typeText) ? typeText : '',
        tag: tags.some((tag) => tag.id === tagText) ? tagText : '',
        page: Number.isSafeInteger(pageNumber) && pageNumber > 0 && pageNumber <= 10_000 ? pageNumber : 1,
      };
      const { rows, total, totalCapped } = await listBoardIdeas(db, ctx.project.id, {
        q: state.q || undefined,
        status: state.status || undefined,
        type: state.type || undefined,
        tagId: state.tag || undefined,
        // A search without a chosen sort lists the best matches first.
        sort: state.q && !sortText ? 'relevance' : state.sort,
        limit: PAGE_SIZE,
        offset: (state.page - 1) * PAGE_SIZE,
      });
      // A search past its cap counts "more than" (search-read-model.ts): "More than 1000 ideas",
      // and a next page while pages come full.
      const counted = totalCapped ? total - 1 : total;
      const pages = Math.max(1, Math.ceil(counted / PAGE_SIZE));
      const pagesText = totalCapped ? `${Math.max(pages, state.page)}+` : pages;
      const hasNext = state.page < pages || (totalCapped && rows.length === PAGE_SIZE);
      const title = ctx.board.title ?? ctx.project.name;
      const canVote = Boolean(ctx.user) || ctx.board.anonymousVotes;
      const voter = voterOf(request, reply, false);
      const voted = voter
        ? await votedAmong(
            db,
            rows.map((row) => row.id),
            voter,
          )
        : new Set<string>();
      const back = listUrl(ctx, state, {}).slice(ctx.base.length) || '/';
      return html`<${Page} ctx=${ctx} title=${title} section="ideas" description=${ctx.t('ideas.description', { board: title })}>
        <h1>${ctx.t('ideas.title')}</h1>
        <form class="toolbar" method="get" action=${`${ctx.base}/`} role="search">
          <div class="field">
            <label for="q">${ctx.t('ideas.search')}</label>
            <input id="q" name="q" type="search" value=${state.q} maxlength=${MAX_QUERY} />
          </div>
          <div class="field">
            <label for="status">${ctx.t('ideas.filter.status')}</label>
            <select id="status" name="status">
              <option value="">${ctx.t('ideas.filter.any')}</option>
              ${LIST_STATUSES.map(
                (status) =>
                  html`<option value=${status} selected=${status === state.status}>
                    ${ctx.t(`status.${status}`)}
                  </option>`,
              )}
            </select>
          </div>
          <div class="field">
            <label for="type">${ctx.t('ideas.filter.type')}</label>
            <select id="type" name="type">
              <option value="">${ctx.t('ideas.filter.any')}</option>
              ${TYPES.map(
                (type) => html`<option value=${type} selected=${type === state.type}>${ctx.t(`type.${type}`)}</option>`,
              )}
            </select>
          </div>
          ${
            tags.length > 0
              ? html`<div class="field">
                  <label for="tag">${ctx.t('ideas.filter.tag')}</label>
                  <select id="tag" name="tag">
                    <option value="">${ctx.t('ideas.filter.any')}</option>
                    ${tags.map((tag) => html`<option value=${tag.id} selected=${tag.id === state.tag}>${tag.name}</option>`)}
                  </select>
                </div>`
              : null
          }
          ${state.sort !== 'top' ? html`<input type="hidden" name="sort" value=${state.sort} />` : null}
          <button type="submit">${ctx.t('ideas.searchButton')}</button>
        </form>
        <nav aria-label=${ctx.t('ideas.sort')}>
          <ul class="sorts">
            ${SORTS.map(
              (sort) =>
                html`<li>
                  <a href=${listUrl(ctx, state, { sort, page: 1 })} aria-current=${sort === state.sort ? 'true' : undefined}
                    >${ctx.t(`ideas.sort.${sort}`)}</a
                  >
                </li>`,
            )}
          </ul>
        </nav>
        <p class="muted" role="status">${totalCapped ? ctx.t('ideas.countMore', { count: counted }) : ctx.t('ideas.count', { count: total })}</p>
        ${
          rows.length === 0
            ? html`<p>${ctx.t('ideas.empty')}</p>`
            : html`<ul class="ideas">
              ${rows.map(
                (idea) =>
                  html`<${IdeaRow}
                    ctx=${ctx}
                    idea=${idea}
                    voted=${voted.has(idea.id)}
                    canVote=${canVote}
                    back=${back}
                  />`,
              )}
            </ul>`
        }
        ${
          pages > 1 || hasNext
            ? html`<nav class="pager" aria-label=${ctx.t('ideas.page', { page: state.page, pages: pagesText })}>
              ${
                state.page > 1
                  ? html`<a rel="prev" href=${listUrl(ctx, state, { page: state.page - 1 })}>${ctx.t('ideas.previous')}</a>`
                  : html`<span></span>`
              }
              <span>${ctx.t('ideas.page', { page: state.page, pages: pagesText })}</span>
              ${
                hasNext
                  ? html`<a rel="next" href=${listUrl(ctx, state, { page: state.page + 1 })}>${ctx.t('ideas.next')}</a>`
                  : html`<span></span>`
              }
            </nav>`
            : null
        }
      <//>`;
    }),
  );

  // The submit form's script asks this as a title is typed.
  app.get('/suggest', async (request, reply) => {
    const ctx = request.board;
    const text = queryText(request, 'q').trim().slice(0, MAX_QUERY);
    const rows = text.length < 3 ? [] : await suggestSimilarIdeas(db, ctx.project.id, text, 5);
    reply.header('cache-control', 'private, max-age=30');
    return rows.map((row) => ({
      title: row.title,
      url: `${ctx.base}${ideaPath(row.id)}`,
      votes: ctx.t('ideas.votes', { count: row.voteCount }),
    }));
  });
}
