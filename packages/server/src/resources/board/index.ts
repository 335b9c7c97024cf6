/** The public board: what other resources, the surfaces, seed, cli and tests may import. */
export {
  boardExists,
  findBoardByDomain,
  listCustomDomains,
  readBoard,
  updateBoard,
  type BoardChanges,
  type BoardSettings,
} from './store.ts';
// The board's SSO page verifies the host app's tokens with this secret.
export { boardSsoSecret } from './sso-secret.ts';
export { boardUrl } from './settings.ts';
