/** Types of the account and team screens, from the generated API schema. */
import type { paths } from './schema.gen.ts';

export type TokenSummary =
  paths['/me/tokens']['get']['responses'][200]['content']['application/json']['tokens'][number];
export type Team = paths['/teams/{teamId}']['get']['responses'][200]['content']['application/json'];
export type Member =
  paths['/teams/{teamId}/members']['get']['responses'][200]['content']['application/json']['members'][number];
export type Invite =
  paths['/teams/{teamId}/invites']['get']['responses'][200]['content']['application/json']['invites'][number];
export type InvitePreview = paths['/invites/{token}']['get']['responses'][200]['content']['application/json'];
export type Role = Team['role'];

export const TEAMS_KEY = ['teams'] as const;
export const teamKey = (teamId: string) => ['team', teamId] as const;

/** A date in the reader's words, or a dash for none. */
export function day(iso: string | null | undefined): string {
  return iso ? new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' }) : '—';
}

export const ROLE_LABELS: Record<Role, string> = { owner: 'Owner', admin: 'Admin', member: 'Member' };
