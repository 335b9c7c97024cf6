/** E-mail verification (with rate-limited resends) and password reset by e-mail. */
import type { FastifyReply } from 'fastify';
import { isTrue } from '../../db/database.ts';
import { errorResponses } from '../../http/common-schemas.ts';
import { BadRequestError, ConflictError, MailFailedError, TooManyRequestsError } from '../../kernel/errors.ts';
import { hitSlidingWindow, rateLimitHeaders } from '../../http/rate-limit.ts';
import { requireAccount } from '../../routing/management/access.ts';
import { MANAGEMENT_API_PREFIX, type ManagementApp, type ManagementDeps } from '../../routing/management/context.ts';
import { sendVerification } from './emails.ts';
import { passwordResetMessage } from './messages.ts';
import { resetPasswordPage, resultPage } from './pages.ts';
import { requireStrongPassword } from './password-strength.ts';
import { hashPassword } from './passwords.ts';
import { Message, ResetBody, ResetRequestBody, TokenQuery, Verified } from './schemas.ts';
import { resetPasswordWithLink, verifyEmailWithLink } from './service.ts';
import { checkLink, createLink, expireLinks, LINK_PROBLEMS } from './store-links.ts';
import { findAccount, findAccountByEmail, normaliseEmail } from './store.ts';

/** Resends of the verification e-mail: 3 an hour per account. Reset requests: 3 an hour per address. */
const RESEND_LIMIT = { max: 3, windowMs: 60 * 60 * 1000 };
const RESET_LIMIT = { max: 3, windowMs: 60 * 60 * 1000 };

const mailFailed = () => new MailFailedError('The e-mail could not be sent; try again later');

/** A browser opening the link gets a page; the response schema only describes the JSON answer. */
function sendHtml(reply: FastifyReply, html: string, status = 200): FastifyReply {
  return reply.code(status).type('text/html').send(html);
}

const wantsHtml = (accept: string | undefined) =>
  !!accept && accept.includes('text/html') && !accept.startsWith('application/json');

export async function emailManagementRoutes(app: ManagementApp, deps: ManagementDeps): Promise<void> {
  const { db, config, mailer } = deps;

  app.post(
    '/me/verification-email',
    {
      schema: {
        operationId: 'resendVerificationEmail',
        summary: 'Send the verification e-mail again (3 an hour); earlier links stop working',
        tags: ['accounts'],
        response: { 202: Message, ...errorResponses(401, 403, 409, 429, 503) },
      },
    },
    async (request, reply) => {
      const account = (await findAccount(db, requireAccount(request).id))!;
      if (isTrue(account.email_verified)) throw new ConflictError('This e-mail address is already verified');
      const limit = await hitSlidingWindow(db, `verify-resend:${account.id}`, RESEND_LIMIT.max, RESEND_LIMIT.windowMs);
      if (!limit.allowed)
        throw new TooManyRequestsError('Too many verification e-mails; try again later', rateLimitHeaders(limit));
      try {
        await sendVerification(deps, account);
      } catch (error) {
        request.log.error({ err: error }, 'verification e-mail not sent');
        throw mailFailed();
      }
      return reply.code(202).send({ message: `Verification e-mail sent to ${account.email}` });
    },
  );

  app.get(
    '/auth/verify-email',
    {
      config: { anonymous: true },
      schema: {
        operationId: 'verifyEmail',
        summary: 'The link of the verification e-mail: marks the address verified (HTML for browsers, else JSON)',
        tags: ['accounts'],
        querystring: TokenQuery,
        response: { 200: Verified, ...errorResponses(400) },
      },
    },
    async (request, reply) => {
      const html = wantsHtml(request.headers.accept);
      const check = await checkLink(db, 'verify-email', request.query.token);
      if (!check.ok) {
        if (html) return sendHtml(reply, resultPage('Link not valid', LINK_PROBLEMS[check.reason]), 400);
        throw new BadRequestError(LINK_PROBLEMS[check.reason]);
      }
      await verifyEmailWithLink(db, check);
      if (html)
        return sendHtml(reply, resultPage('E-mail verified', `${check.email} is verified. You can close this page.`));
      return { verified: true as const, email: check.email };
    },
  );

  app.post(
    '/auth/password-reset',
    {
      config: { anonymous: true },
      schema: {
        operationId: 'requestPasswordReset',
        summary: 'E-mail a password reset link; answers the same whether or not the address has an account',
        tags: ['accounts'],
        body: ResetRequestBody,
        response: { 202: Message, ...errorResponses(400, 413, 415, 429) },
      },
    },
    async (request, reply) => {
      const email = normaliseEmail(request.body.email);
      const limit = await hitSlidingWindow(db, `password-reset:${email}`, RESET_LIMIT.max, RESET_LIMIT.windowMs);
      if (!limit.allowed)
        throw new TooManyRequestsError('Too many reset requests; try again later', rateLimitHeaders(limit));
      const account = await findAccountByEmail(db, email);
      if (account) {
        await expireLinks(db, account.id, 'reset-password');
        const token = await createLink(db, account.id, 'reset-password', account.email);
        // The dashboard's page asks for the new password and posts it to POST /auth/reset-password.
        const link = `${config.publicUrl}/app/reset-password?token=${token}`;
        // Not awaited into the answer: a failure must not reveal that the account exists.
        await mailer
          .send(passwordResetMessage(account.email, link))
          .catch((error: unknown) => request.log.error({ err: error }, 'reset e-mail not sent'));
      }
      return reply.code(202).send({ message: 'If an account uses this address, a reset link is on its way' });
    },
  );

  // The page earlier reset e-mails linked to: a form that posts the new password. Opening it uses nothing up.
  app.get(
    '/auth/reset-password',
    { config: { anonymous: true }, schema: { hide: true, querystring: TokenQuery } },
    async (request, reply) => {
      const check = await checkLink(db, 'reset-password', request.query.token);
      reply.type('text/html').header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
      if (!check.ok) return reply.code(400).send(resultPage('Link not valid', LINK_PROBLEMS[check.reason]));
      return resetPasswordPage(`${MANAGEMENT_API_PREFIX}/auth/reset-password`, request.query.token, check.email);
    },
  );

  app.post(
    '/auth/reset-password',
    {
      config: { anonymous: true },
      schema: {
        operationId: 'resetPassword',
        summary: 'Set a new password with the token of a reset link; signs out every session',
        tags: ['accounts'],
        body: ResetBody,
        response: { 200: Message, ...errorResponses(400, 403, 413, 415) },
      },
    },
    async (request) => {
      const check = await checkLink(db, 'reset-password', request.body.token);
      if (!check.ok) throw new BadRequestError(LINK_PROBLEMS[check.reason]);
      await requireStrongPassword(request.body.password, 'password', [check.email]);
      const passwordHash = await hashPassword(request.body.password);
      const used = await resetPasswordWithLink(db, check, passwordHash);
      if (!used) throw new BadRequestError(LINK_PROBLEMS.used);
      return { message: 'Password changed; sign in with the new password' };
    },
  );
}
