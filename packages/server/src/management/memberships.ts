/**
 * The membership reads behind the management API's access checks (`routing/management/access.ts`),
 * bound to the database. The surface hands them in because the routing layer may not import a
 * resource; the reads themselves belong to the teams resource.
 */
import type { Database } from '../db/database.ts';
import type { MembershipLookups, ProjectAccess } from '../routing/management/context.ts';
import { findProjectMembership, findTeamMembership } from '../resources/teams/index.ts';

export function teamMemberships(db: Database): MembershipLookups {
  return {
    project: (accountId, projectId) => findProjectMembership<ProjectAccess>(db, accountId, projectId),
    async team(accountId, teamId) {
      const row = await findTeamMembership(db, accountId, teamId);
      return (
        row && {
          id: row.id,
          name: row.name,
          ownerAccountId: row.owner_account_id,
          createdAt: row.created_at,
          role: row.role,
        }
      );
    },
  };
}
