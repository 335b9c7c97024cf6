/**
 * Memberships, as the surfaces check them: the management API's access rules (`management/access.ts`)
 * and the OAuth consent page (`oauth/management-accounts.ts`). The management surface imports this
 * file rather than the index, since the index's routes import `management/access.ts` in turn.
 */
export { findProjectMembership, listProjectMemberships } from './projects-read-model.ts';
export { findTeamMembership, type TeamRow } from './store.ts';
