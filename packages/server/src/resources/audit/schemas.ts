/** TypeBox schemas of the audit log's management routes. */
import { Type } from 'typebox';
import { StringEnum, Timestamp } from '../../http/common-schemas.ts';
import { NullableString } from '../../http/management-schemas.ts';

export const RETENTION_DAYS = { min: 1, max: 3650 } as const;

const filters = {
  actor: Type.Optional(
    Type.String({ minLength: 1, maxLength: 320, description: 'An account, key or grant id, or an account’s e-mail' }),
  ),
  action: Type.Optional(
    Type.String({ minLength: 1, maxLength: 100, description: 'One action, e.g. flag.updated or api_key.revoked' }),
  ),
  targetType: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'e.g. feature, flag, api_key' })),
  targetId: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  since: Type.Optional(Type.String({ format: 'date-time', description: 'At or after this time' })),
  until: Type.Optional(Type.String({ format: 'date-time', description: 'Before this time' })),
};

export const AuditQuery = Type.Object({
  ...filters,
  cursor: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 300,
      description: 'The `nextCursor` of the previous page: the page after it, as fast as the first',
    }),
  ),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
});

export const AUDIT_EXPORT_FORMATS = ['csv', 'jsonl'] as const;

export const AuditExportQuery = Type.Object({
  ...filters,
  format: Type.Optional(
    StringEnum(AUDIT_EXPORT_FORMATS, {
      default: 'jsonl',
      description: 'jsonl: one JSON entry a line (application/x-ndjson); csv: RFC 4180 with a header row',
    }),
  ),
});

export const AuditEntry = Type.Object(
  {
    id: Type.String(),
    at: Timestamp,
    projectId: NullableString({ description: 'null: a team-wide action (members, invites), shown with each project' }),
    actor: Type.Object(
      {
        type: StringEnum(['account', 'api_key', 'oauth', 'system'] as const),
        id: NullableString(),
        label: Type.String({ description: 'The account’s e-mail, the key or grant id, or "system"' }),
        via: StringEnum(['session', 'token', 'cli', 'public-api', 'mcp', 'system'] as const),
      },
      { additionalProperties: false },
    ),
    action: Type.String(),
    target: Type.Object({ type: Type.String(), id: NullableString() }, { additionalProperties: false }),
    before: Type.Unknown({ description: 'The target before the action (secrets redacted); null: it did not exist' }),
    after: Type.Unknown({ description: 'The target after the action (secrets redacted); null: it is gone' }),
  },
  { additionalProperties: false },
);

export const AuditPage = Type.Object(
  {
    entries: Type.Array(AuditEntry),
    nextCursor: Type.Union([Type.String(), Type.Null()], {
      description: 'Pass as `cursor` for the next page; null on the last page',
    }),
  },
  { additionalProperties: false },
);

export const AuditSettings = Type.Object(
  {
    retentionDays: Type.Integer({
      minimum: RETENTION_DAYS.min,
      maximum: RETENTION_DAYS.max,
      description: 'Entries older than this many days are deleted (hourly); 365 unless set',
    }),
  },
  { additionalProperties: false },
);
