/**
 * What needs the signed-in account's attention (the dashboard's home): ideas to triage and the
 * most-voted open ones across its projects, its e-mail status, and pending invites of the teams it
 * administers. Every list is bounded and scoped to the account's own team memberships.
 */
import { errorResponses } from '../../http/common-schemas.ts';
import { nowIso } from '../../kernel/ids.ts';
import { requireAccount } from '../../routing/management/access.ts';
import type { ManagementApp, ManagementDeps } from '../../routing/management/context.ts';
import {
  type AttentionIdeaRow,
  listAwaitingModeration,
  listIdeasToTriage,
  listMostVotedOpenIdeas,
} from '../features/index.ts';
import { listErrorGroupsNeedingAttention } from '../reports/index.ts';
import { listPendingInvitesAdministeredBy } from '../teams/index.ts';
import { Attention, ATTENTION_LIMIT } from './schemas.ts';
import { findAccount } from './store.ts';

function presentIdea(row: AttentionIdeaRow) {
  return {
    id: row.id,
    projectId: row.project_id,
    projectName: row.project_name,
    environment: row.environment,
    title: row.title,
    status: row.status,
    voteCount: Number(row.vote_count),
    commentCount: Number(row.comment_count),
    createdAt: row.created_at,
  };
}

export async function attentionManagementRoutes(app: ManagementApp, { db }: ManagementDeps): Promise<void> {
  app.get(
    '/me/attention',
    {
      schema: {
        operationId: 'getAttention',
        summary:
          'What needs the caller’s attention: ideas to triage, most-voted open ideas, items held for moderation, e-mail status, pending invites of teams it administers, new and regressed error groups (at most 10 each)',
        tags: ['accounts'],
        response: { 200: Attention, ...errorResponses(401) },
      },
    },
    async (request) => {
      const caller = requireAccount(request);
      const [account, triage, voted, held, invites, groups] = await Promise.all([
        findAccount(db, caller.id),
        listIdeasToTriage(db, caller.id, ATTENTION_LIMIT),
        listMostVotedOpenIdeas(db, caller.id, ATTENTION_LIMIT),
        listAwaitingModeration(db, caller.id, ATTENTION_LIMIT),
        listPendingInvitesAdministeredBy(db, caller.id, nowIso(), ATTENTION_LIMIT),
        listErrorGroupsNeedingAttention(db, caller.id, ATTENTION_LIMIT),
      ]);
      return {
        emailVerified: account ? Boolean(Number(account.email_verified)) : false,
        ideasToTriage: triage.map(presentIdea),
        mostVotedOpenIdeas: voted.map(presentIdea),
        awaitingModeration: held.map((row) => ({
          projectId: row.project_id,
          projectName: row.project_name,
          count: row.count,
        })),
        pendingInvites: invites.map((row) => ({
          id: row.id,
          teamId: row.team_id,
          teamName: row.team_name,
          email: row.email,
          role: row.role,
          createdAt: row.created_at,
          expiresAt: row.expires_at,
        })),
        errorGroups: groups.map((row) => ({
          id: row.id,
          projectId: row.project_id,
          projectName: row.project_name,
          title: row.title,
          status: row.status,
          sdkEnvironment: row.sdk_environment,
          level: row.level,
          events: Number(row.events),
          firstSeenAt: row.first_seen_at,
          lastSeenAt: row.last_seen_at,
        })),
      };
    },
  );
}
