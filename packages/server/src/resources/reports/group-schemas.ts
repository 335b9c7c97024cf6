/** The management API's error groups (issue 31): schemas first, routes in group-routes.ts. */
import { Type } from 'typebox';
import { StringEnum, Timestamp } from '../../http/common-schemas.ts';
import { KeyEnvironmentSchema, NullableString, ProjectParams } from '../../http/management-schemas.ts';
import { ERROR_STATUSES, REPORT_STATUSES } from './store-triage.ts';

export const GROUP_LEVELS = ['fatal', 'error', 'warning', 'info', 'debug'] as const;
export const GROUP_SORTS = ['lastSeen', 'count', 'users'] as const;

export const GroupParams = Type.Object({
  ...ProjectParams.properties,
  groupId: Type.String({ minLength: 1, maxLength: 100 }),
});
export const EventParams = Type.Object({
  ...GroupParams.properties,
  eventId: Type.String({
    minLength: 1,
    maxLength: 100,
    description: "An event's id (32 hex digits, as the SDK sent it), or latest, or oldest",
  }),
});

const SdkEnvironment = Type.String({
  maxLength: 64,
  description:
    "The SDK's environment (Sentry's `environment`, POST /errors' app.environment; production when none was sent)",
});

export const GroupListQuery = Type.Object({
  environment: Type.Optional(KeyEnvironmentSchema),
  sdkEnvironment: Type.Optional(SdkEnvironment),
  status: Type.Optional(StringEnum(ERROR_STATUSES)),
  release: Type.Optional(
    Type.String({ minLength: 1, maxLength: 500, description: 'Groups first or last seen in this release' }),
  ),
  level: Type.Optional(StringEnum(GROUP_LEVELS)),
  tag: Type.Optional(
    Type.String({
      minLength: 3,
      maxLength: 300,
      pattern: '^[^:]+:.+$',
      description: 'key:value — groups with an event of this tag value (e.g. browser.name:Chrome)',
    }),
  ),
  q: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Text in the title or culprit' })),
  sort: Type.Optional(StringEnum(GROUP_SORTS, { default: 'lastSeen', description: 'lastSeen, count or users' })),
  cursor: Type.Optional(Type.String({ maxLength: 500, description: 'nextCursor of the previous page' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
});

const groupSummary = {
  id: Type.String(),
  projectId: Type.String(),
  environment: KeyEnvironmentSchema,
  sdkEnvironment: Type.String(),
  title: Type.String(),
  errorType: NullableString(),
  culprit: NullableString({ description: 'The newest in-app frame, "function (file)"' }),
  level: Type.String(),
  status: StringEnum(ERROR_STATUSES),
  unhandled: Type.Boolean({ description: 'An event of the group was not handled (mechanism.handled false)' }),
  firstSeenAt: Timestamp,
  lastSeenAt: Timestamp,
  firstRelease: NullableString({ description: 'New in this release' }),
  lastRelease: NullableString(),
  resolvedInRelease: NullableString(),
  regressedInRelease: NullableString(),
  events: Type.Integer({ description: 'Events counted, exact (merged groups included)' }),
  users: Type.Integer({ description: 'Distinct users (id, else e-mail, else IP address)' }),
  mergedInto: NullableString({ description: 'The group this one is merged into, shown in its place' }),
};
export const ErrorGroupSummary = Type.Object(groupSummary, { additionalProperties: false });

export const ErrorGroupPage = Type.Object(
  {
    groups: Type.Array(ErrorGroupSummary),
    nextCursor: NullableString(),
    environments: Type.Array(
      Type.Object(
        { environment: Type.String(), groups: Type.Integer(), events: Type.Integer() },
        { additionalProperties: false },
      ),
      { description: 'Groups and events per SDK environment under the other filters' },
    ),
  },
  { additionalProperties: false },
);

const TagFacet = Type.Object(
  {
    key: Type.String(),
    total: Type.Integer(),
    distinct: Type.Integer(),
    values: Type.Array(
      Type.Object(
        { value: Type.String(), count: Type.Integer(), share: Type.Number({ minimum: 0, maximum: 1 }) },
        { additionalProperties: false },
      ),
      { description: 'The top 10 values, most frequent first' },
    ),
  },
  { additionalProperties: false },
);

const SuspectFlag = Type.Object(
  {
    flagKey: Type.String(),
    action: StringEnum(['created', 'changed', 'deleted'] as const),
    environment: Type.Union([StringEnum(['live', 'test'] as const), Type.Null()], {
      description: 'The key environment the change was limited to; null: both',
    }),
    changedAt: Timestamp,
    enabled: Type.Union([Type.Boolean(), Type.Null()], {
      description: 'Whether the flag was on after it (null: deleted)',
    }),
    actorName: NullableString(),
  },
  { additionalProperties: false },
);

/** A flag evaluation an event carried (Sentry's `contexts.flags.values`, newest last). */
export const EventFlag = Type.Object({ flag: Type.String(), result: Type.Unknown() }, { additionalProperties: false });

export const ErrorGroupDetail = Type.Object(
  {
    ...groupSummary,
    keptEvents: Type.Integer({ description: 'Events kept to browse: the first, the latest and a sample' }),
    recordId: NullableString({
      description: 'The newest error record (dedup record) of the group: GET …/errors/{reportId}/history charts it',
    }),
    tags: Type.Array(TagFacet),
    merged: Type.Array(ErrorGroupSummary, { description: 'Groups merged into this one' }),
    suspectFlags: Type.Array(SuspectFlag, {
      description:
        'Feature flags changed in the hour before the group began (its first event; for a regressed group, the regression), newest first',
    }),
  },
  { additionalProperties: false },
);

const eventSummary = {
  eventId: Type.String(),
  groupId: Type.String({ description: 'The group whose key the event has (a merged group’s own)' }),
  receivedAt: Timestamp,
  release: NullableString(),
  sdkEnvironment: Type.String(),
  handled: Type.Union([Type.Boolean(), Type.Null()]),
};
export const ErrorEventPage = Type.Object(
  {
    events: Type.Array(Type.Object(eventSummary, { additionalProperties: false })),
    kept: Type.Integer(),
    nextCursor: NullableString(),
  },
  { additionalProperties: false },
);
export const EventListQuery = Type.Object({
  cursor: Type.Optional(Type.String({ maxLength: 500 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 25 })),
});

export const ErrorEventDetail = Type.Object(
  {
    ...eventSummary,
    position: Type.Integer({ description: 'The place among the kept events, oldest 1' }),
    kept: Type.Integer(),
    older: NullableString({ description: 'The previous (older) event' }),
    newer: NullableString({ description: 'The next (newer) event' }),
    flags: Type.Array(EventFlag, {
      description: 'The feature flags evaluated before the error, as the SDK sent them (contexts.flags), newest last',
    }),
    event: Type.Record(Type.String(), Type.Unknown(), {
      description:
        'The event as sent: exception values (stack frames with context lines, mechanism), contexts, request, user, tags, breadcrumbs, message; browser, OS and device parsed from the user agent where not sent',
    }),
  },
  { additionalProperties: false },
);

export const GroupStatusBody = Type.Object({
  status: StringEnum(REPORT_STATUSES),
  inNextRelease: Type.Optional(Type.Boolean({ description: 'With resolved: a newer release regresses it' })),
});
export const MergeBody = Type.Object({
  groupIds: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
    minItems: 1,
    maxItems: 50,
    description: 'Groups merged into this one (with any merged into them)',
  }),
});
