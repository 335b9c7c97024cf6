/** Sign-up, sign-in, sign-out and the signed-in account (`/me`). */
import { Type } from 'typebox';
import { errorResponses } from '../../http/common-schemas.ts';
import { ForbiddenError, TooManyRequestsError, UnauthorizedError } from '../../kernel/errors.ts';
import { requireAccount } from '../../routing/management/access.ts';
import type { ManagementApp, ManagementDeps } from '../../routing/management/context.ts';
import { clearSessionCookie } from './cookies.ts';
import { sendSignUpAttemptNotice, sendVerification } from './emails.ts';
import { requireStrongPassword } from './password-strength.ts';
import { hashPassword, passwordMatches } from './passwords.ts';
import { AccountEnvelope, Message, Password, SignInBody, SignUpBody, UpdateMeBody } from './schemas.ts';
import { presentAccount } from './presenter.ts';
import { changePassword, createAccountUnlessTaken, seededProjects } from './service.ts';
import { signInWithPassword, throttledHeaders } from './sign-in.ts';
import { deleteSession } from './store-sessions.ts';
import { findAccount, setAccountName } from './store.ts';

/** The one answer to every sign-up, new address or taken: it must not tell which. */
export const SIGN_UP_ANSWER = 'Check your e-mail to finish signing up, then sign in';

export async function accountManagementRoutes(app: ManagementApp, deps: ManagementDeps): Promise<void> {
  const { db, config } = deps;

  app.post(
    '/auth/sign-up',
    {
      config: { anonymous: true },
      schema: {
        operationId: 'signUp',
        summary:
          'Create an account with e-mail and password; the same answer whether or not the address has an account',
        description:
          'A new address gets an account and a verification e-mail; an address that has an account gets an e-mail ' +
          'telling its owner that someone tried to sign up with it. Both answer 202 with the same body, so the answer ' +
          'never tells whether an address has an account. Then sign in with POST /auth/sign-in.',
        tags: ['accounts'],
        body: SignUpBody,
        response: { 202: Message, ...errorResponses(400, 403, 413, 415) },
      },
    },
    async (request, reply) => {
      const { email, password } = request.body;
      const name = request.body.name?.trim() ?? '';
      await requireStrongPassword(password, 'password', [email, name]);
      // Hashed either way, so both answers take about as long.
      const passwordHash = await hashPassword(password);
      const created = await createAccountUnlessTaken(db, {
        email,
        name,
        passwordHash,
        verified: false,
        claimProjects: seededProjects(config),
      });
      const mail = created ? sendVerification(deps, created) : sendSignUpAttemptNotice(deps, email);
      await mail.catch((error: unknown) => request.log.error({ err: error }, 'sign-up e-mail not sent'));
      return reply.code(202).send({ message: SIGN_UP_ANSWER });
    },
  );

  app.post(
    '/auth/sign-in',
    {
      config: { anonymous: true },
      schema: {
        operationId: 'signIn',
        summary: 'Sign in with e-mail and password; sets the session cookie',
        description:
          'Repeated failures from one client are slowed (429 with Retry-After), per address tried and across addresses; another client is not affected.',
        tags: ['accounts'],
        body: SignInBody,
        response: { 200: AccountEnvelope, ...errorResponses(400, 401, 403, 413, 415, 429) },
      },
    },
    async (request, reply) => {
      const result = await signInWithPassword(deps, reply, request.body.email, request.body.password);
      if (result.ok) return { account: presentAccount(result.account) };
      if (result.reason === 'throttled') {
        throw new TooManyRequestsError(
          `Too many sign-in attempts; try again in ${result.retryAfterSeconds} s`,
          throttledHeaders(result.retryAfterSeconds),
        );
      }
      throw new UnauthorizedError('Wrong e-mail address or password');
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
      await requireStrongPassword(request.body.newPassword, 'newPassword', [row.email, row.name]);
      const passwordHash = await hashPassword(request.body.newPassword);
      await changePassword(db, account.id, passwordHash, account.credentialId);
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
      await setAccountName(db, account.id, request.body.name.trim());
      return { account: presentAccount((await findAccount(db, account.id))!) };
    },
  );
}
