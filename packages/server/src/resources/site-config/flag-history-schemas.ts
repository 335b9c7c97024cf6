/** Schemas of a flag's change history (issue 33). */
import { Type } from 'typebox';
import { StringEnum, Timestamp } from '../../http/common-schemas.ts';
import { NullableString } from '../../http/management-schemas.ts';

export const FLAG_CHANGE_ACTIONS = ['created', 'changed', 'deleted'] as const;
export const FLAG_ACTOR_TYPES = ['member', 'token', 'api-key', 'oauth', 'system'] as const;

export const FlagHistoryQuery = Type.Object({
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'nextCursor of the previous page' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 25 })),
});

const FlagState = Type.Union([
  Type.Record(Type.String(), Type.Unknown(), {
    description: 'The flag as GET …/site-config/flags presents it, without id, projectId and createdAt',
  }),
  Type.Null(),
]);

export const ErrorRate = Type.Object(
  {
    environment: StringEnum(['live', 'test'] as const, { description: 'The key environment counted' }),
    before: Type.Number({ description: 'Error events per hour over the 3 UTC hours before the hour of the change' }),
    after: Type.Number({
      description:
        'Error events per hour from the hour of the change on (up to 3 hours, the current one counted whole)',
    }),
    afterHours: Type.Integer({ description: 'Hours averaged for `after` (fewer than 3 for a recent change)' }),
  },
  { additionalProperties: false },
);

export const FlagChange = Type.Object(
  {
    id: Type.String(),
    flagKey: Type.String(),
    action: StringEnum(FLAG_CHANGE_ACTIONS),
    environment: Type.Union([StringEnum(['live', 'test'] as const), Type.Null()], {
      description: 'live or test when only that key environment’s value changed; null: both',
    }),
    changedFields: Type.Array(Type.String(), { description: 'Fields whose value differs between old and new' }),
    oldValue: FlagState,
    newValue: FlagState,
    actor: Type.Object(
      {
        type: StringEnum(FLAG_ACTOR_TYPES, {
          description:
            'member: signed in (dashboard); token: personal access token (CLI, API); api-key, oauth: MCP; system: the server (a restore, a job)',
        }),
        id: NullableString({ description: 'The account, or the API key for api-key' }),
        name: NullableString(),
      },
      { additionalProperties: false },
    ),
    createdAt: Timestamp,
    errorRate: ErrorRate,
  },
  { additionalProperties: false },
);

export const FlagHistory = Type.Object(
  { changes: Type.Array(FlagChange), nextCursor: NullableString() },
  { additionalProperties: false },
);
