/**
 * Who the board's reader is. Two ways in: a link e-mailed to the address (one use, 30 minutes;
 * the address counts as verified), or a short-lived HS256 token the host app signs with the
 * board's SSO secret (`/sso?token=…`), so an app's signed-in users arrive signed in. A private
 * board takes only the second. Sessions are a cookie scoped to the board's path.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  type BoardContext,
  type BoardDeps,
  formText,
  limitBoardAction,
  queryText,
  safeReturn,
  sendPage,
} from '../../routing/board/context.ts';
import { Csrf, Errors, Honeypot, html, Notice, Page } from '../../routing/board/ui.ts';
import { BOARD_SESSION_COOKIE, boardSsoSecret } from './sso-secret.ts';
import { profileOfClaims } from './sso-claims.ts';
import { linkMessage } from '../../mail/link-message.ts';
import {
  type BoardUserRow,
  createBoardSession,
  createSignInLink,
  endBoardSession,
  upsertBoardUser,
  useSignInLink,
} from './store-users.ts';

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}\.[^\s@]{2,}$/;
const NAME_MAX = 100;
/** SSO tokens must be fresh: at most this old, whatever their own expiry says. */
const SSO_MAX_AGE = '10m';
const jose = () => import('jose');
const SIGN_IN_LIMIT = { max: 10, windowMs: 60 * 60_000 };

function cookieOptions(deps: BoardDeps, ctx: BoardContext) {
  return {
    path: ctx.base || '/',
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: deps.config.accounts.secureCookies,
  };
}

async function startSession(deps: BoardDeps, reply: FastifyReply, ctx: BoardContext, user: BoardUserRow) {
  const session = await createBoardSession(deps.db, user);
  reply.setCookie(BOARD_SESSION_COOKIE, session.token, {
    ...cookieOptions(deps, ctx),
    expires: new Date(session.expiresAt),
  });
}

function SignInPage({
  ctx,
  email,
  name,
  returnTo,
  errors,
  notice,
}: {
  ctx: BoardContext;
  email: string;
  name: string;
  returnTo: string;
  errors: string[];
  notice: string | undefined;
}) {
  return html`<${Page} ctx=${ctx} title=${ctx.t('signIn.title')} section="account">
    <h1>${ctx.t('signIn.title')}</h1>
    ${notice ? html`<${Notice} kind="info">${notice}<//>` : null}
    ${
      ctx.board.private
        ? html`<p>${ctx.t('signIn.ssoOnly')}</p>`
        : html`<form method="post" action=${`${ctx.base}/sign-in`} class="card">
          <p>${ctx.t('signIn.intro')}</p>
          <${Errors} errors=${errors} />
          <${Csrf} ctx=${ctx} />
          <${Honeypot} />
          <input type="hidden" name="return" value=${returnTo} />
          <div class="field">
            <label for="email">${ctx.t('signIn.email')}</label>
            <input id="email" name="email" type="email" required autocomplete="email" value=${email} maxlength="320" />
          </div>
          <div class="field">
            <label for="name">${ctx.t('signIn.name')}</label>
            <input id="name" name="name" type="text" autocomplete="name" value=${name} maxlength=${NAME_MAX} />
          </div>
          <button type="submit">${ctx.t('signIn.button')}</button>
        </form>`
    }
  <//>`;
}

function MessagePage({ ctx, title, text }: { ctx: BoardContext; title: string; text: string }) {
  return html`<${Page} ctx=${ctx} title=${title} section="account">
    <h1>${title}</h1>
    <p>${text}</p>
    <p><a href=${`${ctx.base}/`}>${ctx.t('idea.back')}</a></p>
  <//>`;
}

export async function boardSignInPages(app: FastifyInstance, deps: BoardDeps): Promise<void> {
  const { db, mailer } = deps;

  const signInForm = (
    request: FastifyRequest,
    reply: FastifyReply,
    fields: { email?: string; name?: string; errors?: string[]; notice?: string; status?: number } = {},
  ) =>
    sendPage(
      request,
      reply,
      html`<${SignInPage}
        ctx=${request.board}
        email=${fields.email ?? ''}
        name=${fields.name ?? ''}
        returnTo=${safeReturn(queryText(request, 'return') || formText(request, 'return'))}
        errors=${fields.errors ?? []}
        notice=${fields.notice}
      />`,
      fields.status,
    );

  app.get('/sign-in', (request, reply) => signInForm(request, reply));

  app.post('/sign-in', async (request, reply) => {
    const ctx = request.board;
    if (ctx.board.private) return signInForm(request, reply, { status: 403 });
    const email = formText(request, 'email').trim();
    const name = formText(request, 'name').trim().slice(0, NAME_MAX);
    if (formText(request, 'website') !== '' || !EMAIL.test(email) || email.length > 320) {
      return signInForm(request, reply, { email, name, errors: [ctx.t('field.email')], status: 400 });
    }
    // Per client and per address: neither a script nor a stranger can flood someone's inbox.
    for (const bucket of [
      `board:sign-in:${ctx.project.id}:${request.ip}`,
      `board:sign-in-to:${ctx.project.id}:${email.toLowerCase()}`,
    ]) {
      await limitBoardAction(db, bucket, SIGN_IN_LIMIT);
    }
    const returnTo = safeReturn(formText(request, 'return'));
    const token = await createSignInLink(db, ctx.project.id, {
      email,
      name: name || undefined,
      locale: ctx.locale,
      returnTo,
    });
    const boardName = ctx.board.title ?? ctx.project.name;
    const link = `${ctx.origin}/sign-in/verify?token=${encodeURIComponent(token)}`;
    try {
      await mailer.send(
        linkMessage(
          email,
          ctx.t('signIn.mailSubject', { board: boardName }),
          [ctx.t('signIn.mailBody', { board: boardName })],
          link,
          ctx.t('signIn.mailAction'),
        ),
      );
    } catch (error) {
      request.log.error({ err: error }, 'board sign-in e-mail could not be sent');
    }
    return sendPage(
      request,
      reply,
      html`<${MessagePage} ctx=${ctx} title=${ctx.t('signIn.title')} text=${ctx.t('signIn.sent')} />`,
    );
  });

  // The e-mailed link opens a page with one button: mail scanners that fetch links do not sign in.
  app.get('/sign-in/verify', async (request, reply) => {
    const ctx = request.board;
    const token = queryText(request, 'token');
    return sendPage(
      request,
      reply,
      html`<${Page} ctx=${ctx} title=${ctx.t('signIn.title')} section="account">
        <h1>${ctx.t('signIn.title')}</h1>
        <form method="post" action=${`${ctx.base}/sign-in/verify`}>
          <${Csrf} ctx=${ctx} />
          <input type="hidden" name="token" value=${token} />
          <button type="submit">${ctx.t('signIn.mailAction')}</button>
        </form>
      <//>`,
    );
  });

  app.post('/sign-in/verify', async (request, reply) => {
    const ctx = request.board;
    const link = await useSignInLink(db, ctx.project.id, formText(request, 'token'));
    if (!link || ctx.board.private) {
      return sendPage(
        request,
        reply,
        html`<${MessagePage} ctx=${ctx} title=${ctx.t('signIn.title')} text=${ctx.t('signIn.expired')} />`,
        400,
      );
    }
    const user = await upsertBoardUser(db, ctx.project.id, {
      email: link.email,
      name: link.name ?? undefined,
      locale: link.locale,
    });
    await startSession(deps, reply, ctx, user);
    return reply.redirect(`${ctx.base}${safeReturn(link.returnTo ?? '/')}`, 303);
  });

  app.get('/sso', async (request, reply) => {
    const ctx = request.board;
    const refuse = () =>
      sendPage(
        request,
        reply,
        html`<${MessagePage} ctx=${ctx} title=${ctx.t('signIn.title')} text=${ctx.t('sso.refused')} />`,
        401,
      );
    const secret = await boardSsoSecret(deps.db, deps.config, ctx.project.id);
    const token = queryText(request, 'token');
    if (!secret || !token || token.length > 4096) return refuse();
    let claims: Record<string, unknown> & { sub?: unknown; email?: unknown; name?: unknown };
    try {
      // jose is loaded by the first board SSO sign-in, not at start (kernel/lazy-module.ts).
      ({ payload: claims } = await (await jose()).jwtVerify(token, new TextEncoder().encode(secret), {
        algorithms: ['HS256'],
        requiredClaims: ['sub', 'email', 'exp', 'iat'],
        maxTokenAge: SSO_MAX_AGE,
      }));
    } catch (error) {
      if (!(error instanceof (await jose()).errors.JOSEError)) throw error;
      return refuse();
    }
    const { sub, email, name } = claims;
    if (typeof sub !== 'string' || sub.length === 0 || sub.length > 200) return refuse();
    if (typeof email !== 'string' || !EMAIL.test(email) || email.length > 320) return refuse();
    const user = await upsertBoardUser(
      db,
      ctx.project.id,
      {
        email,
        name: typeof name === 'string' ? name.trim().slice(0, NAME_MAX) || undefined : undefined,
        locale: ctx.locale,
        externalId: sub,
      },
      profileOfClaims(claims),
    );
    await startSession(deps, reply, ctx, user);
    return reply.redirect(`${ctx.base}${safeReturn(queryText(request, 'return'))}`, 303);
  });

  app.post('/sign-out', async (request, reply) => {
    const ctx = request.board;
    const token = request.cookies[BOARD_SESSION_COOKIE];
    if (token) await endBoardSession(db, token);
    reply.clearCookie(BOARD_SESSION_COOKIE, cookieOptions(deps, ctx));
    return reply.redirect(`${ctx.base}/`, 303);
  });
}
