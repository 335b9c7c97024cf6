/**
 * Accounts (`accounts`, `sessions`, `account_links`, `account_identities`, `sign_in_throttle`,
 * `oidc_requests`): sign-up and sign-in, e-mail links, the identity provider, instance
 * administration. What other resources, the surfaces and the tests use.
 */
export { SESSION_COOKIE } from './cookies.ts';
export { SIGN_UP_ANSWER } from './management-routes.ts';
export { createAccount, createAccountUnlessTaken, type NewAccount } from './service.ts';
export { signInWithPassword, type PasswordSignIn } from './sign-in.ts';
export { findSessionAccount } from './store-sessions.ts';
export { findAccount, normaliseEmail, type AccountRow } from './store.ts';
