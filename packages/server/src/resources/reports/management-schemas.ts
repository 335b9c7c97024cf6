import { Type, type TSchema } from 'typebox';
import { Paging, StringEnum, Timestamp } from '../../http/common-schemas.ts';
import { KeyEnvironmentSchema, NullableString, pageFields, ProjectParams } from '../../http/management-schemas.ts';
import { HISTORY_RANGES } from './store-history.ts';
import { ERROR_STATUSES, REPORT_STATUSES } from './store-triage.ts';

export const ReportParams = Type.Object({
  ...ProjectParams.properties,
  reportId: Type.String({ minLength: 1, maxLength: 100 }),
});
export const ReportStatus = StringEnum(REPORT_STATUSES, { description: 'open, resolved or ignored' });
export const ErrorStatus = StringEnum(ERROR_STATUSES, {
  description: 'open, resolved, ignored, or regressed (resolved, then reported again)',
});
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
  status: ErrorStatus,
  release: NullableString({ description: 'The release (app.version) of the last report that gave one' }),
  title: Type.String(),
  message: Type.String(),
  errorType: NullableString(),
  severity: Type.String(),
  url: NullableString(),
  group: Type.Object(
    {
      occurrences: Type.Integer({ description: 'Reports of the group, over all its records' }),
      firstSeenAt: Timestamp,
      records: Type.Integer({ description: 'Records of the group: one per dedup window with reports' }),
    },
    {
      additionalProperties: false,
      description:
        'The group this record belongs to (same environment and fingerprint, across dedup windows); lists show its newest record',
    },
  ),
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
    resolvedInRelease: NullableString({
      description:
        'Resolved in the next release: the release it was resolved in; a report from a newer one marks it regressed',
    }),
    groupId: NullableString({ description: 'The error group of its first event (GET …/error-groups/{groupId})' }),
  },
  { additionalProperties: false },
);

export const StatusCounts = Type.Object(
  { open: Type.Integer(), resolved: Type.Integer(), ignored: Type.Integer() },
  { additionalProperties: false, description: 'Records per status in the environment filter (other filters ignored)' },
);
export const ErrorStatusCounts = Type.Object(
  { open: Type.Integer(), resolved: Type.Integer(), ignored: Type.Integer(), regressed: Type.Integer() },
  { additionalProperties: false, description: 'Groups per status in the environment filter (other filters ignored)' },
);

export function ReportQuery(
  gradeName: 'severity' | 'level',
  grades: readonly string[],
  extra: Record<string, TSchema> = {},
  status: TSchema = ReportStatus,
) {
  return Type.Object({
    environment: Type.Optional(KeyEnvironmentSchema),
    status: Type.Optional(status),
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

export function ReportPage(name: string, item: TSchema, counts: TSchema = StatusCounts) {
  return Type.Object({ [name]: Type.Array(item), ...pageFields, counts }, { additionalProperties: false });
}

export const StatusBody = Type.Object({ status: ReportStatus });
export const ErrorStatusBody = Type.Object({
  status: ReportStatus,
  inNextRelease: Type.Optional(
    Type.Boolean({
      description:
        'With status resolved: resolved as of the release after the last reported one; reports from that release keep it resolved, a newer one regresses it',
    }),
  ),
});

export const HistoryQuery = Type.Object({
  range: Type.Optional(StringEnum(HISTORY_RANGES, { default: '24h', description: '24h (by hour) or 14d (by day)' })),
});
export const ErrorHistory = Type.Object(
  {
    range: StringEnum(HISTORY_RANGES),
    bucket: StringEnum(['hour', 'day'] as const),
    buckets: Type.Array(
      Type.Object(
        { start: Timestamp, count: Type.Integer({ minimum: 0 }) },
        { additionalProperties: false, description: 'Reports of the group in the UTC hour or day from `start`' },
      ),
    ),
    total: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
);

export const BugFeature = Type.Object(
  {
    featureId: Type.String({ description: 'The feature (idea) linked to the bug report' }),
    created: Type.Boolean({ description: 'False when the bug report was already linked to a feature' }),
  },
  { additionalProperties: false },
);
