/** Sign-up, sign-in, sign-out and the signed-in account (`/me`). */
import { Type } from 'typebox';
import type { Config } from '../../config.ts';
import { DEMO_PROJECT_ID } from '../../seed/first-start.ts';
import { errorResponses } from '../../http/common-schemas.ts';
import { ForbiddenError, HttpError, TooManyRequestsError, UnauthorizedError } from '../../http/errors.ts';
import { hitSlidingWindow, rateLimitHeaders } from '../../http/rate-limit.ts';
import { requireAccount } from '../access.ts';
import type { ManagementApp, ManagementDeps } from '../context.ts';
import { clearSessionCookie, setSessionCookie } from './cookies.ts';
import { sendVerification } from './email-routes.ts';
import { hashPassword, passwordMatches } from './passwords.ts';
import { AccountEnvelope, Password, SignInBody, SignUpBody, UpdateMeBody } from './schemas.ts';
import { createSession, deleteAccountSessions, deleteExpiredSessions, deleteSession } from './sessions.ts';
import { createAccount, findAccount, findAccountByEmail, normaliseEmail, presentAccount } from './store.ts';

/** What the instance's first account owns: the platform project and the demo project. */
export const seededProjects = (config: Config) => [config.platformProjectId, DEMO_PROJECT_ID];

const SIGN_IN_LIMIT = { max: 10, windowMs: 15 * 60 * 1000 };

export async function accountRoutes(app: ManagementApp, deps: ManagementDeps): Promise<void> {
  const { db, config } = deps;

  app.post(
    '/auth/sign-up',
    {
      config: { anonymous: true },
      schema: {
        operationId: 'signUp',
        summary: 'Create an account with e-mail and password; sends a verification e-mail and signs in',
        tags: ['accounts'],
        body: SignUpBody,
        response: { 201: AccountEnvelope, ...errorResponses(400, 403, 409, 413, 415) },
      },
    },
    async (request, reply) => {
      const { email, password, name } = request.body;
      if (await findAccountByEmail(db, email)) throw new HttpError(409, 'Conflict', 'An account with this e-mail address already exists');
      const passwordHash = await hashPassword(password);
      let account;
      try {
        account = await db.transaction((tx) => createAccount(tx, { email, name: name?.trim() ?? '', passwordHash, verified: false, claimProjects: seededProjects(config) }));
      } catch (error) {
        // Two sign-ups with one address at once: the unique index lets one through.
        if (await findAccountByEmail(db, email)) throw new HttpError(409, 'Conflict', 'An account with this e-mail address already exists');
        throw error;
      }
      await sendVerification(deps, account).catch((error: unknown) => request.log.error({ err: error }, 'verification e-mail not sent'));
      setSessionCookie(reply, config, await createSession(db, account.id, config.accounts.sessionTtlDays));
      return reply.code(201).send({ account: presentAccount(account) });
    },
  );

  app.post(
    '/auth/sign-in',
    {
      config: { anonymous: true },
      schema: {
        operationId: 'signIn',
        summary: 'Sign in with e-mail and password; sets the session cookie',
        tags: ['accounts'],
        body: SignInBody,
        response: { 200: AccountEnvelope, ...errorResponses(400, 401, 403, 413, 415, 429) },
      },
    },
    async (request, reply) => {
      const email = normaliseEmail(request.body.email);
      const limit = await hitSlidingWindow(db, `sign-in:${email}`, SIGN_IN_LIMIT.max, SIGN_IN_LIMIT.windowMs);
      if (!limit.allowed) throw new TooManyRequestsError('Too many sign-in attempts; try again later', rateLimitHeaders(limit));
      const account = await findAccountByEmail(db, email);
      if (!(await passwordMatches(request.body.password, account?.password_hash)) || !account) {
        throw new UnauthorizedError('Wrong e-mail address or password');
      }
      await deleteExpiredSessions(db, account.id);
      setSessionCookie(reply, config, await createSession(db, account.id, config.accounts.sessionTtlDays));
      return { account: presentAccount(account) };
    },
  );

  app.post(
    '/auth/sign-out',
    {
      schema: {
        operationId: 'signOut',
        summary: 'End this session (a personal access token stays valid; revoke it instead)',
        tags: ['accounts'],
        response: { 204: { type: 'null', description: 'Signed out' }, ...errorResponses(401, 403) },
      },
    },
    async (request, reply) => {
      const account = requireAccount(request);
      if (account.via === 'session') await deleteSession(db, account.credentialId);
      clearSessionCookie(reply, config);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/me',
    {
      schema: {
        operationId: 'getMe',
        summary: 'The signed-in account, with whether its e-mail address is verified',
        tags: ['accounts'],
        response: { 200: AccountEnvelope, ...errorResponses(401) },
      },
    },
    async (request) => ({ account: presentAccount((await findAccount(db, requireAccount(request).id))!) }),
  );

  app.post(
    '/me/password',
    {
      schema: {
        operationId: 'changePassword',
        summary: 'Set a new password (the current one is needed if there is one); other sessions are signed out',
        tags: ['accounts'],
        body: Type.Object({ currentPassword: Type.Optional(Type.String({ maxLength: 200 })), newPassword: Password }),
        response: { 200: AccountEnvelope, ...errorResponses(400, 401, 403, 413, 415) },
      },
    },
    async (request) => {
      const account = requireAccount(request);
      if (account.via !== 'session') throw new ForbiddenError('Sign in with a session to change the password');
      const row = (await findAccount(db, account.id))!;
      if (row.password_hash && !(await passwordMatches(request.body.currentPassword ?? '', row.password_hash))) {
        throw new ForbiddenError('The current password is wrong');
      }
      const passwordHash = await hashPassword(request.body.newPassword);
      await db.transaction(async (tx) => {
        await tx.run('UPDATE accounts SET password_hash = ? WHERE id = ?', [passwordHash, account.id]);
        await deleteAccountSessions(tx, account.id, account.credentialId);
      });
      return { account: presentAccount((await findAccount(db, account.id))!) };
    },
  );

  app.patch(
    '/me',
    {
      schema: {
        operationId: 'updateMe',
        summary: 'Change the display name',
        tags: ['accounts'],
        body: UpdateMeBody,
        response: { 200: AccountEnvelope, ...errorResponses(400, 401, 403, 413, 415) },
      },
    },
    async (request) => {
      const account = requireAccount(request);
      await db.run('UPDATE accounts SET name = ? WHERE id = ?', [request.body.name.trim(), account.id]);
      return { account: presentAccount((await findAccount(db, account.id))!) };
    },
  );
}
