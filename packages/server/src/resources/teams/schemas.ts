import { Type } from 'typebox';
import { StringEnum, Timestamp } from '../../http/common-schemas.ts';
import { ROLES } from '../../routing/management/context.ts';

export const RoleSchema = StringEnum(ROLES);
/** Roles an invite or a role change may give; there is one owner per team. */
export const AssignableRole = StringEnum(['admin', 'member'] as const);

export const SeatsSchema = Type.Object(
  {
    used: Type.Integer({
      description: 'Addresses that count for the owner: members and pending invites over all their teams',
    }),
    limit: Type.Integer(),
  },
  { additionalProperties: false },
);

export const Team = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    ownerAccountId: Type.String(),
    role: RoleSchema,
    seats: SeatsSchema,
    createdAt: Timestamp,
  },
  { additionalProperties: false },
);

export const Member = Type.Object(
  {
    accountId: Type.String(),
    email: Type.String(),
    name: Type.String(),
    verified: Type.Boolean(),
    role: RoleSchema,
    joinedAt: Timestamp,
  },
  { additionalProperties: false },
);

export const Invite = Type.Object(
  {
    id: Type.String(),
    teamId: Type.String(),
    email: Type.String(),
    role: RoleSchema,
    status: StringEnum(['pending', 'accepted', 'revoked', 'expired'] as const),
    createdAt: Timestamp,
    expiresAt: Timestamp,
  },
  { additionalProperties: false },
);

export const InvitePreview = Type.Object(
  {
    teamId: Type.String(),
    teamName: Type.String(),
    email: Type.String({ description: 'The address the invite was sent to' }),
    role: RoleSchema,
    status: StringEnum(['pending', 'accepted', 'revoked', 'expired'] as const),
    expiresAt: Timestamp,
    invitedBy: Type.Union([Type.String(), Type.Null()], {
      description: 'The name (else the address) of the account that sent the invite; null when it no longer exists',
    }),
  },
  { additionalProperties: false },
);

export const TeamParams = Type.Object({ teamId: Type.String() });
export const MemberParams = Type.Object({ teamId: Type.String(), accountId: Type.String() });
export const InviteParams = Type.Object({ teamId: Type.String(), inviteId: Type.String() });
export const InviteTokenParams = Type.Object({ token: Type.String({ maxLength: 200 }) });
