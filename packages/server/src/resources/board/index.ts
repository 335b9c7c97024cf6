/**
 * The board resource: a project's board settings, the people who sign in to it and their
 * sessions. What the board surface, other resources, seed, cli and tests may use.
 */
export { findProjectForBoard, slugForDomain, type BoardProjectRow } from './read-model.ts';
export {
  boardExists,
  readBoard,
  settingsOfRow,
  updateBoard,
  type BoardChanges,
  type BoardSettings,
} from './store.ts';
export { findSessionUser, setBoardUserSpam, type BoardUserRow } from './store-users.ts';
// The board's SSO page verifies the host app's tokens with this secret.
export { BOARD_SESSION_COOKIE, boardSsoSecret } from './sso-secret.ts';
export { boardUrl } from './settings.ts';
// The in-app widget's identity (issue 35): the same HS256 token and secret as the board's SSO.
// "What's new" names its reader with the same token (only `sub` is needed there).
export {
  findWidgetUser,
  identifyWidgetUser,
  IDENTITY_HEADER,
  IDENTITY_TOKEN_MAX_LENGTH,
  verifyIdentityToken,
} from './widget-identity.ts';
// Erasing a person (resources/people/service.ts), in its transaction.
export { eraseBoardUsers } from './store-users.ts';
