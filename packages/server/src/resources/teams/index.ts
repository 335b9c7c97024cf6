/** Teams, members, invites and seats (`teams`, `team_members`, `team_invites`): what other resources and the surfaces use. */
export { RoleSchema, SeatsSchema } from './schemas.ts';
export { seatsOf } from './seats-read-model.ts';
export { lockOwnerSeats, type Seats } from './seats.ts';
export * from './service.ts';
export { createTeam, firstOwnedTeamId } from './store.ts';
export { listPendingInvitesAdministeredBy, type AdministeredInviteRow } from './attention-read-model.ts';
