import { Type } from 'typebox';
import { Email, Timestamp } from '../../http/common-schemas.ts';

export { Email };
/** At least 10 characters; argon2 makes long ones cheap to keep, 200 stops abuse. Strength: password-strength.ts. */
export const Password = Type.String({
  minLength: 10,
  maxLength: 200,
  description:
    'At least 10 characters and hard to guess: common, leaked-pattern and dictionary-based passwords are refused (400 naming the field).',
});

export const Account = Type.Object(
  {
    id: Type.String(),
    email: Type.String(),
    name: Type.String(),
    verified: Type.Boolean({
      description: 'The e-mail address is verified (by its link, or by the identity provider).',
    }),
    admin: Type.Boolean({ description: 'Instance administrator (the first account): sets seat limits.' }),
    hasPassword: Type.Boolean({ description: 'False for accounts that only sign in through the identity provider.' }),
    createdAt: Timestamp,
  },
  { additionalProperties: false },
);

export const AccountEnvelope = Type.Object({ account: Account }, { additionalProperties: false });

export const SignUpBody = Type.Object({
  email: Email,
  password: Password,
  name: Type.Optional(Type.String({ maxLength: 100 })),
});

export const SignInBody = Type.Object({
  email: Type.String({ minLength: 1, maxLength: 254 }),
  password: Type.String({ minLength: 1, maxLength: 200 }),
});

export const UpdateMeBody = Type.Object({ name: Type.String({ maxLength: 100 }) });

export const Message = Type.Object({ message: Type.String() }, { additionalProperties: false });

export const TokenQuery = Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) });

export const ResetRequestBody = Type.Object({ email: Type.String({ minLength: 1, maxLength: 254 }) });
export const ResetBody = Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }), password: Password });

export const Verified = Type.Object(
  { verified: Type.Literal(true), email: Type.String() },
  { additionalProperties: false },
);

const AttentionIdea = Type.Object(
  {
    id: Type.String(),
    projectId: Type.String(),
    projectName: Type.String(),
    environment: Type.Union([Type.Literal('live'), Type.Literal('test')]),
    title: Type.String(),
    status: Type.String(),
    voteCount: Type.Integer(),
    commentCount: Type.Integer(),
    createdAt: Timestamp,
  },
  { additionalProperties: false },
);

const AttentionInvite = Type.Object(
  {
    id: Type.String(),
    teamId: Type.String(),
    teamName: Type.String(),
    email: Type.String(),
    role: Type.String(),
    createdAt: Timestamp,
    expiresAt: Timestamp,
  },
  { additionalProperties: false },
);

export const ATTENTION_LIMIT = 10;

const AttentionErrorGroup = Type.Object(
  {
    id: Type.String(),
    projectId: Type.String(),
    projectName: Type.String(),
    title: Type.String(),
    status: Type.String({ description: 'open (new) or regressed' }),
    sdkEnvironment: Type.String(),
    level: Type.String(),
    events: Type.Integer(),
    firstSeenAt: Type.String({ format: 'date-time' }),
    lastSeenAt: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
);

export const Attention = Type.Object(
  {
    emailVerified: Type.Boolean({ description: 'false: the account’s e-mail address still needs its link opened' }),
    ideasToTriage: Type.Array(AttentionIdea, {
      maxItems: ATTENTION_LIMIT,
      description:
        'Ideas and bugs the team has not triaged yet (no status change, edit or “mark triaged”; held ones wait in moderation) of the projects of the caller’s teams, newest first (both key environments)',
    }),
    mostVotedOpenIdeas: Type.Array(AttentionIdea, {
      maxItems: ATTENTION_LIMIT,
      description:
        'Ideas with votes still in play (open, planned, in-progress, in-review, accepted) of those projects, most votes first',
    }),
    awaitingModeration: Type.Array(
      Type.Object(
        { projectId: Type.String(), projectName: Type.String(), count: Type.Integer({ minimum: 1 }) },
        { additionalProperties: false },
      ),
      {
        maxItems: ATTENTION_LIMIT,
        description: 'Projects of the caller’s teams with ideas or comments held for moderation, most first',
      },
    ),
    pendingInvites: Type.Array(AttentionInvite, {
      maxItems: ATTENTION_LIMIT,
      description: 'Invites not yet accepted, revoked or expired, of the teams the caller administers (admin or owner)',
    }),
    errorGroups: Type.Array(AttentionErrorGroup, {
      maxItems: ATTENTION_LIMIT,
      description:
        'Error groups of those projects (live keys) that regressed, or are new (first seen in the last 7 days) and open, latest seen first',
    }),
  },
  { additionalProperties: false },
);
