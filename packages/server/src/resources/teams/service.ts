/**
 * Memberships, as the surfaces check them: the management API's access rules (handed to
 * `routing/management/access.ts` by `management/memberships.ts`) and the OAuth consent page
 * (`oauth/management-accounts.ts`).
 */
export { findProjectMembership, listProjectMemberships } from './projects-read-model.ts';
export { findTeamMembership, type TeamRow } from './store.ts';
