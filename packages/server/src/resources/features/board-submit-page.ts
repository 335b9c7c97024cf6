/**
 * Submitting an idea from the board (`/submit`, posted to `/ideas`): title and description with
 * the public API's bounds, stored through createFeature like POST /features. Similar ideas show as
 * the title is typed (with the script), and after a first post when JavaScript is off.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type BoardContext, type BoardDeps, formText, redirectTo, sendPage } from '../../routing/board/context.ts';
import { Csrf, Errors, Honeypot, html, Page } from '../../routing/board/ui.ts';
import { boardScope, limitClient } from './board-idea-page.ts';
import { ideaPath } from './board-ideas-page.ts';
import { DESCRIPTION_LENGTH, TITLE_LENGTH } from './schemas.ts';
import { createFeature } from './service.ts';
import { follow } from '../notifications/index.ts';
import { type BoardIdea, suggestSimilarIdeas } from './board-read-model.ts';

interface Draft {
  title: string;
  description: string;
  type: 'feature' | 'bug';
}

function SubmitForm({
  ctx,
  draft,
  errors,
  similar,
}: {
  ctx: BoardContext;
  draft: Draft;
  errors: string[];
  similar: BoardIdea[];
}) {
  return html`<${Page} ctx=${ctx} title=${ctx.t('submit.title')} section="submit">
    <h1>${ctx.t('submit.title')}</h1>
    <form method="post" action=${`${ctx.base}/ideas`} class="card">
      <${Errors} errors=${errors} />
      <${Csrf} ctx=${ctx} />
      <${Honeypot} />
      <div class="field">
        <label for="title">${ctx.t('submit.ideaTitle')}</label>
        <input
          id="title"
          name="title"
          type="text"
          required
          minlength=${TITLE_LENGTH.min}
          maxlength=${TITLE_LENGTH.max}
          value=${draft.title}
          aria-describedby="title-hint"
          data-suggest=${`${ctx.base}/suggest`}
          autocomplete="off"
        />
        <p class="hint" id="title-hint">${ctx.t('submit.ideaTitleHint', TITLE_LENGTH)}</p>
      </div>
      <div class="similar" id="similar" aria-live="polite" hidden=${similar.length === 0}>
        <p>${ctx.t('submit.similar')}</p>
        <ul>
          ${similar.map(
            (idea) =>
              html`<li>
                <a href=${`${ctx.base}${ideaPath(idea.id)}`}>${idea.title}</a>
                <span class="muted"> (${ctx.t('ideas.votes', { count: idea.voteCount })})</span>
              </li>`,
          )}
        </ul>
      </div>
      <div class="field">
        <label for="description">${ctx.t('submit.description')}</label>
        <textarea
          id="description"
          name="description"
          required
          minlength=${DESCRIPTION_LENGTH.min}
          maxlength=${DESCRIPTION_LENGTH.max}
          aria-describedby="description-hint"
        >${draft.description}</textarea>
        <p class="hint" id="description-hint">${ctx.t('submit.descriptionHint', DESCRIPTION_LENGTH)}</p>
      </div>
      <fieldset class="field">
        <legend>${ctx.t('submit.type')}</legend>
        <label><input type="radio" name="type" value="feature" checked=${draft.type === 'feature'} /> ${ctx.t('type.feature')}</label>
        <label><input type="radio" name="type" value="bug" checked=${draft.type === 'bug'} /> ${ctx.t('type.bug')}</label>
      </fieldset>
      <input type="hidden" name="seenSimilar" value=${similar.length > 0 ? '1' : ''} />
      <button type="submit">${ctx.t('submit.button')}</button>
    </form>
  <//>`;
}

function signInFirst(reply: FastifyReply, ctx: BoardContext) {
  return reply.redirect(`${ctx.base}/sign-in?return=${encodeURIComponent('/submit')}`, 303);
}

export async function boardSubmitPage(app: FastifyInstance, deps: BoardDeps): Promise<void> {
  const { db, config } = deps;
  const empty: Draft = { title: '', description: '', type: 'feature' };

  const render = (
    request: FastifyRequest,
    reply: FastifyReply,
    draft: Draft,
    errors: string[],
    similar: BoardIdea[],
    status = 200,
  ) =>
    sendPage(
      request,
      reply,
      html`<${SubmitForm} ctx=${request.board} draft=${draft} errors=${errors} similar=${similar} />`,
      status,
    );

  app.get('/submit', async (request, reply) => {
    if (!request.board.user) return signInFirst(reply, request.board);
    return render(request, reply, empty, [], []);
  });

  app.post('/ideas', async (request, reply) => {
    const ctx = request.board;
    const user = ctx.user;
    if (!user) return signInFirst(reply, ctx);
    const draft: Draft = {
      title: formText(request, 'title').trim(),
      description: formText(request, 'description').trim(),
      type: formText(request, 'type') === 'bug' ? 'bug' : 'feature',
    };
    const errors: string[] = [];
    if (formText(request, 'website') !== '') errors.push(ctx.t('error.badRequest'));
    const check = (value: string, field: string, bounds: { min: number; max: number }) => {
      if (value.length < bounds.min) errors.push(ctx.t('field.tooShort', { field, min: bounds.min }));
      if (value.length > bounds.max) errors.push(ctx.t('field.tooLong', { field, max: bounds.max }));
    };
    check(draft.title, ctx.t('submit.ideaTitle'), TITLE_LENGTH);
    check(draft.description, ctx.t('submit.description'), DESCRIPTION_LENGTH);
    if (errors.length > 0) return render(request, reply, draft, errors, [], 400);
    // Without the script nobody saw the suggestions: show them once before storing the idea.
    if (formText(request, 'seenSimilar') === '') {
      const similar = await suggestSimilarIdeas(db, ctx.project.id, draft.title, 5);
      if (similar.length > 0) return render(request, reply, draft, [], similar);
    }
    await limitClient(deps, request, 'submit');
    const held = ctx.board.moderation || (ctx.user?.spam ?? false);
    const idea = await createFeature(
      db,
      {
        scope: boardScope(ctx),
        platformProjectId: config.platformProjectId,
        limitedCaller: { db, callerId: `board:${user.id}` },
      },
      { ...draft, internal: false, held, boardUserId: user.id },
    );
    await follow(db, idea.id, user.id);
    return redirectTo(reply, ctx, ideaPath(idea.id));
  });
}
