/**
 * An idea's page on the board (`/ideas/:id`): the idea, its votes, comments and the changelog
 * entries that shipped it; and its forms: vote (or take the vote back), comment. Internal and
 * missing ideas are the same 404 page; a held idea shows only to the person who submitted it.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  type BoardContext,
  type BoardDeps,
  formText,
  limitBoardAction,
  redirectTo,
  safeReturn,
  sendPage,
  wantsJson,
} from '../../routing/board/context.ts';
import { Csrf, DateText, Errors, Honeypot, html, Notice, Page, StatusBadge } from '../../routing/board/ui.ts';
import { NotFoundError } from '../../kernel/errors.ts';
import { findFeatureRedirect } from './store-merge.ts';
import type { Scope } from '../../kernel/scope.ts';
import { listPublishedEntriesOfFeature } from '../changelog/index.ts';
import { countFollowers, follow, isFollowing, unfollow } from '../notifications/index.ts';
import { ideaPath } from './board-ideas-page.ts';
import { type FeatureRow, findPublicFeature, getFeature } from './store.ts';
import { type CommentRow, insertComment, listComments } from './store-comments.ts';
import { addVote, hasVoted, removeVote } from './store-votes.ts';
import { voterOf } from './board-voter.ts';

const COMMENT_LENGTH = { min: 1, max: 5000 };
/** Per client address: a board is read by people, not scripts. */
export const BOARD_LIMITS = {
  vote: { max: 60, windowMs: 10 * 60_000 },
  comment: { max: 20, windowMs: 10 * 60_000 },
  submit: { max: 10, windowMs: 60 * 60_000 },
};

export function boardScope(ctx: BoardContext): Scope {
  // The board shows and takes live data, as the keyless public endpoints do.
  return { projectId: ctx.project.id, environment: 'live' };
}

/** Counts one action of this client against its limit; a refused one is a 429 page. */
export async function limitClient(
  deps: BoardDeps,
  request: FastifyRequest,
  action: keyof typeof BOARD_LIMITS,
): Promise<void> {
  await limitBoardAction(deps.db, `board:${action}:${request.board.project.id}:${request.ip}`, BOARD_LIMITS[action]);
}

async function visibleIdea(deps: BoardDeps, ctx: BoardContext, id: string): Promise<FeatureRow | undefined> {
  const idea = await findPublicFeature(deps.db, boardScope(ctx), id);
  if (idea) return idea;
  // Held for moderation: its author may see it (with a notice); everyone else gets the 404.
  const own = ctx.user ? await getFeature(deps.db, ctx.project.id, id) : undefined;
  const row = own as (FeatureRow & { held?: number; board_user_id?: string | null; internal: number }) | undefined;
  return row && row.held === 1 && row.internal === 0 && row.environment === 'live' && row.board_user_id === ctx.user?.id
    ? row
    : undefined;
}

function authorOf(ctx: BoardContext, comment: CommentRow): string {
  return comment.author_name?.trim() || ctx.t('idea.anonymous');
}

function IdeaView({
  ctx,
  idea,
  comments,
  voted,
  entries,
  errors,
  commentText,
  notice,
  following,
  followers,
}: {
  ctx: BoardContext;
  idea: FeatureRow & { held?: number };
  comments: CommentRow[];
  voted: boolean;
  following: boolean;
  followers: number;
  entries: { id: string; summary: string; published_at: string }[];
  errors: string[];
  commentText: string;
  notice: string | undefined;
}) {
  const path = ideaPath(idea.id);
  const canVote = Boolean(ctx.user) || ctx.board.anonymousVotes;
  const held = idea.held === 1;
  return html`<${Page} ctx=${ctx} title=${idea.title} section="ideas" description=${idea.description.slice(0, 160)}>
    <p><a href=${`${ctx.base}/`}>← ${ctx.t('idea.back')}</a></p>
    ${held ? html`<${Notice} kind="info">${ctx.t('idea.held')}<//>` : null}
    ${notice ? html`<${Notice} kind="info">${notice}<//>` : null}
    <article class="detail">
      <div class="votes">
        <strong data-vote-count=${idea.id}>${idea.vote_count}</strong>
        <span>${ctx.t('idea.voteCount')}</span>
      </div>
      <div class="body">
        <h1>${idea.title}</h1>
        <div class="meta">
          <${StatusBadge} ctx=${ctx} status=${idea.status} type=${idea.type} releasedIn=${idea.released_in} />
          <span>${ctx.t(idea.type === 'bug' ? 'type.bug' : 'type.feature')}</span>
          <span>${ctx.t('idea.posted')} <${DateText} ctx=${ctx} iso=${idea.created_at} /></span>
        </div>
        <p class="description">${idea.description}</p>
        ${
          idea.status_response
            ? html`<section class="response" aria-labelledby="response">
              <h2 id="response">${ctx.t('idea.response')}</h2>
              <p>${idea.status_response}</p>
            </section>`
            : null
        }
        ${
          held
            ? null
            : html`<div class="actions">
              ${
                canVote
                  ? html`<form method="post" action=${`${ctx.base}${path}/vote`} data-vote=${idea.id}>
                    <${Csrf} ctx=${ctx} />
                    <input type="hidden" name="intent" value=${voted ? 'remove' : 'add'} />
                    <button type="submit" aria-pressed=${voted ? 'true' : 'false'}>
                      ${voted ? ctx.t('idea.unvote') : ctx.t('idea.vote')}
                    </button>
                  </form>`
                  : html`<p>
                    <a href=${`${ctx.base}/sign-in?return=${encodeURIComponent(path)}`}>${ctx.t('idea.signInToVote')}</a>
                  </p>`
              }
              ${
                ctx.user
                  ? html`<form method="post" action=${`${ctx.base}${path}/follow`} data-follow=${idea.id}>
                      <${Csrf} ctx=${ctx} />
                      <input type="hidden" name="intent" value=${following ? 'unfollow' : 'follow'} />
                      <button type="submit" class="quiet" aria-pressed=${following ? 'true' : 'false'}>
                        ${following ? ctx.t('idea.unfollow') : ctx.t('idea.follow')}
                      </button>
                    </form>`
                  : null
              }
            </div>
            <p class="muted" data-follow-text=${idea.id}>
              ${following ? `${ctx.t('idea.following')} ` : ''}${ctx.t('idea.followers', { count: followers })}
            </p>`
        }
        ${
          entries.length > 0
            ? html`<section aria-labelledby="shipped">
              <h2 id="shipped">${ctx.t('idea.shipped')}</h2>
              <ul>
                ${entries.map(
                  (entry) =>
                    html`<li>
                      <a href=${`${ctx.base}/changelog/${encodeURIComponent(entry.id)}`}>${entry.summary}</a>
                      ${' '}<${DateText} ctx=${ctx} iso=${entry.published_at} />
                    </li>`,
                )}
              </ul>
            </section>`
            : null
        }
      </div>
    </article>
    <section aria-labelledby="comments">
      <h2 id="comments">${ctx.t('idea.comments')} (${comments.length})</h2>
      ${
        comments.length === 0
          ? html`<p class="muted">${ctx.t('idea.noComments')}</p>`
          : html`<ol class="comments">
            ${comments.map(
              (comment) =>
                html`<li class="comment" id=${comment.id}>
                  <div class="meta">
                    <strong>${authorOf(ctx, comment)}</strong>
                    ${Number(comment.team ?? 0) === 1 ? html`<span class="badge team">${ctx.t('idea.team')}</span>` : null}
                    <${DateText} ctx=${ctx} iso=${comment.created_at} />
                  </div>
                  <p>${comment.body}</p>
                </li>`,
            )}
          </ol>`
      }
      ${
        held
          ? null
          : ctx.user
            ? html`<form method="post" action=${`${ctx.base}${path}/comments`}>
              <${Errors} errors=${errors} />
              <${Csrf} ctx=${ctx} />
              <${Honeypot} />
              <div class="field">
                <label for="body">${ctx.t('idea.comment')}</label>
                <textarea id="body" name="body" required maxlength=${COMMENT_LENGTH.max}>${commentText}</textarea>
              </div>
              <button type="submit">${ctx.t('idea.commentButton')}</button>
            </form>`
            : html`<p>
              <a href=${`${ctx.base}/sign-in?return=${encodeURIComponent(path)}`}>${ctx.t('idea.signInToVote')}</a>
            </p>`
      }
    </section>
  <//>`;
}

export async function boardIdeaPage(app: FastifyInstance, deps: BoardDeps): Promise<void> {
  const { db } = deps;

  type ShowOptions = { errors?: string[]; commentText?: string; notice?: string };

  async function ideaPage(request: FastifyRequest, reply: FastifyReply, options: ShowOptions) {
    const ctx = request.board;
    const { id } = request.params as { id: string };
    const idea = await visibleIdea(deps, ctx, id);
    if (!idea) throw new NotFoundError();
    const voter = voterOf(request, reply, false);
    const [comments, voted, entries, following, followers] = await Promise.all([
      listComments(db, idea.id, 200, 0),
      voter ? hasVoted(db, idea.id, voter) : false,
      listPublishedEntriesOfFeature(db, ctx.project.id, idea.id),
      ctx.user ? isFollowing(db, idea.id, ctx.user.id) : false,
      countFollowers(db, idea.id),
    ]);
    return html`<${IdeaView}
      ctx=${ctx}
      idea=${idea}
      comments=${comments}
      voted=${voted}
      entries=${entries}
      errors=${options.errors ?? []}
      commentText=${options.commentText ?? ''}
      notice=${options.notice}
      following=${following}
      followers=${followers}
    />`;
  }

  /** The page again after a form: with its errors or notice, never from the cache. */
  async function show(request: FastifyRequest, reply: FastifyReply, options: ShowOptions & { status?: number }) {
    return sendPage(request, reply, await ideaPage(request, reply, options), options.status);
  }

  app.get('/ideas/:id', async (request, reply) => {
    try {
      return await deps.pages.send(request, reply, () => ideaPage(request, reply, {}));
    } catch (error) {
      // A merged idea: its links (e-mails, bookmarks) lead to the idea it was merged into.
      if (!(error instanceof NotFoundError)) throw error;
      const { id } = request.params as { id: string };
      const to = await findFeatureRedirect(db, request.board.project.id, id);
      if (to === undefined) throw error;
      return reply.redirect(`${request.board.base}${ideaPath(to)}`, 308);
    }
  });

  app.post('/ideas/:id/vote', async (request, reply) => {
    const ctx = request.board;
    const { id } = request.params as { id: string };
    const voter = voterOf(request, reply, true);
    if (!voter) return reply.redirect(`${ctx.base}/sign-in?return=${encodeURIComponent(ideaPath(id))}`, 303);
    await limitClient(deps, request, 'vote');
    const adding = formText(request, 'intent') !== 'remove';
    const scope = boardScope(ctx);
    const count = adding ? await addVote(db, scope, id, voter) : await removeVote(db, scope, id, voter);
    if (count === undefined) throw new NotFoundError();
    // A voter follows the idea (and stays following after taking the vote back, until they unfollow).
    if (adding && ctx.user) await follow(db, id, ctx.user.id);
    if (wantsJson(request)) {
      // The follow state may have changed with the vote: the idea page shows it in place.
      const [following, followers] = ctx.user
        ? await Promise.all([isFollowing(db, id, ctx.user.id), countFollowers(db, id)])
        : [false, await countFollowers(db, id)];
      return {
        voted: adding,
        voteCount: count,
        label: adding ? ctx.t('idea.unvote') : ctx.t('idea.vote'),
        countText: String(count),
        following,
        followLabel: following ? ctx.t('idea.unfollow') : ctx.t('idea.follow'),
        followText: `${following ? `${ctx.t('idea.following')} ` : ''}${ctx.t('idea.followers', { count: followers })}`,
      };
    }
    return redirectTo(reply, ctx, safeReturn(formText(request, 'return'), ideaPath(id)));
  });

  app.post('/ideas/:id/follow', async (request, reply) => {
    const ctx = request.board;
    const { id } = request.params as { id: string };
    if (!ctx.user) return reply.redirect(`${ctx.base}/sign-in?return=${encodeURIComponent(ideaPath(id))}`, 303);
    const idea = await findPublicFeature(db, boardScope(ctx), id);
    if (!idea) throw new NotFoundError();
    if (formText(request, 'intent') === 'unfollow') await unfollow(db, id, ctx.user.id);
    else await follow(db, id, ctx.user.id);
    return redirectTo(reply, ctx, ideaPath(id));
  });

  app.post('/ideas/:id/comments', async (request, reply) => {
    const ctx = request.board;
    const { id } = request.params as { id: string };
    if (!ctx.user) return reply.redirect(`${ctx.base}/sign-in?return=${encodeURIComponent(ideaPath(id))}`, 303);
    const body = formText(request, 'body').trim();
    const errors: string[] = [];
    if (formText(request, 'website') !== '') errors.push(ctx.t('error.badRequest'));
    if (body.length < COMMENT_LENGTH.min)
      errors.push(ctx.t('field.tooShort', { field: ctx.t('idea.comment'), min: COMMENT_LENGTH.min }));
    if (body.length > COMMENT_LENGTH.max)
      errors.push(ctx.t('field.tooLong', { field: ctx.t('idea.comment'), max: COMMENT_LENGTH.max }));
    if (errors.length > 0) return show(request, reply, { errors, commentText: body, status: 400 });
    await limitClient(deps, request, 'comment');
    const held = ctx.board.moderation || (ctx.user?.spam ?? false);
    const comment = await insertComment(db, boardScope(ctx), id, {
      body,
      authorName: ctx.user.name ?? undefined,
      held,
      boardUserId: ctx.user.id,
    });
    if (!comment) throw new NotFoundError();
    await follow(db, id, ctx.user.id);
    if (held) return show(request, reply, { notice: ctx.t('idea.commentHeld') });
    return redirectTo(reply, ctx, `${ideaPath(id)}#${comment.id}`);
  });
}
