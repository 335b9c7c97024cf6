import { Type, type TSchema } from 'typebox';
import { Paging, StringEnum, Timestamp } from '../../http/common-schemas.ts';
import { KeyEnvironmentSchema, NullableString, pageFields, ProjectParams } from '../../http/management-schemas.ts';
import { REPORT_STATUSES } from './store-triage.ts';

export const ReportParams = Type.Object({
  ...ProjectParams.properties,
  reportId: Type.String({ minLength: 1, maxLength: 100 }),
});
export const ReportStatus = StringEnum(REPORT_STATUSES, { description: 'open, resolved or ignored' });
export const Json = Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]);

/** The fields every grouped report has (bugs, errors, log groups). */
export const groupFields = {
  id: Type.String(),
  projectId: Type.String(),
  environment: KeyEnvironmentSchema,
  status: ReportStatus,
  occurrences: Type.Integer({ description: 'Reports counted on this record' }),
  firstSeenAt: Timestamp,
  lastSeenAt: Timestamp,
};

const bug = {
  ...groupFields,
  title: Type.String(),
  message: Type.String(),
  bugType: NullableString(),
  severity: Type.String(),
  channel: NullableString(),
  featureId: NullableString({ description: 'The feature created with createFeature, if any' }),
};
export const BugSummary = Type.Object(bug, { additionalProperties: false });
export const Bug = Type.Object(
  { ...bug, stackTrace: NullableString(), metadata: Json },
  { additionalProperties: false },
);

const error = {
  ...groupFields,
  title: Type.String(),
  message: Type.String(),
  errorType: NullableString(),
  severity: Type.String(),
  url: NullableString(),
};
export const ErrorSummary = Type.Object(error, { additionalProperties: false });
export const ErrorRecord = Type.Object(
  {
    ...error,
    stackTrace: NullableString(),
    breadcrumbs: Type.Union([Type.Array(Type.Record(Type.String(), Type.Unknown())), Type.Null()]),
    device: Json,
    network: Json,
    app: Json,
    referrer: NullableString(),
    occurredAt: NullableString({ description: 'The time the client gave for the last report' }),
    metadata: Json,
  },
  { additionalProperties: false },
);

export const StatusCounts = Type.Object(
  { open: Type.Integer(), resolved: Type.Integer(), ignored: Type.Integer() },
  { additionalProperties: false, description: 'Records per status in the environment filter (other filters ignored)' },
);

export function ReportQuery(
  gradeName: 'severity' | 'level',
  grades: readonly string[],
  extra: Record<string, TSchema> = {},
) {
  return Type.Object({
    environment: Type.Optional(KeyEnvironmentSchema),
    status: Type.Optional(ReportStatus),
    [gradeName]: Type.Optional(
      Type.String({ maxLength: 200, description: `Comma-separated list of: ${grades.join(', ')}` }),
    ),
    since: Type.Optional(Type.String({ format: 'date-time', description: 'Seen at or after this time (last seen)' })),
    until: Type.Optional(Type.String({ format: 'date-time', description: 'First seen before this time' })),
    q: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'Text searched in titles, messages, stack traces and types',
      }),
    ),
    sort: Type.Optional(StringEnum(['lastSeen', 'firstSeen', 'occurrences'] as const, { default: 'lastSeen' })),
    ...extra,
    ...Paging(50),
  });
}

export function ReportPage(name: string, item: TSchema) {
  return Type.Object(
    { [name]: Type.Array(item), ...pageFields, counts: StatusCounts },
    { additionalProperties: false },
  );
}

export const StatusBody = Type.Object({ status: ReportStatus });
