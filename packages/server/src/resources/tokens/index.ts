/** Personal access tokens (`personal_access_tokens`): what other resources and the surfaces use. */
export { findTokenAccount } from './read-model.ts';
export { createToken, revokeAccountTokens, touchToken, TOKEN_PREFIX, type TokenRow } from './store.ts';
