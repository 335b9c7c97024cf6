/** Release health's management API schemas (request and response apart). */
import { Type } from 'typebox';
import { StringEnum, Timestamp } from '../../http/common-schemas.ts';
import { KeyEnvironmentSchema, NullableString, ProjectParams } from '../../http/management-schemas.ts';

export const HealthQuery = Type.Object({
  environment: Type.Optional(KeyEnvironmentSchema),
  sdkEnvironment: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'Only sessions of this SDK environment (`production`, …)',
    }),
  ),
  days: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 90, default: 14, description: 'Days up to now; default 14' }),
  ),
});

export const ReleaseHealthQuery = Type.Object({
  ...HealthQuery.properties,
  bucket: Type.Optional(
    StringEnum(['hour', 'day'] as const, { description: 'Series buckets; default hour up to 2 days, else day' }),
  ),
});

export const ReleaseHealthParams = Type.Object({
  ...ProjectParams.properties,
  version: Type.String({ minLength: 1, maxLength: 200, description: 'As listed (`shop@` prefixes dropped)' }),
});

const Rate = Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()]);

const Summary = {
  version: Type.String(),
  registered: Type.Boolean({ description: 'A release created through the API (else only seen in sessions)' }),
  firstSeen: Type.Union([Timestamp, Type.Null()], { description: 'First hour with sessions or version checks' }),
  sessions: Type.Object(
    {
      total: Type.Integer(),
      healthy: Type.Integer(),
      errored: Type.Integer(),
      unhandled: Type.Integer({ description: 'An unhandled error that did not crash the app (browser SDKs)' }),
      abnormal: Type.Integer(),
      crashed: Type.Integer(),
    },
    { additionalProperties: false },
  ),
  users: Type.Object({ total: Type.Integer(), crashed: Type.Integer() }, { additionalProperties: false }),
  versionChecks: Type.Integer({ description: 'Public version checks from clients on this release' }),
  crashFreeSessions: Rate,
  crashFreeUsers: Rate,
};

export const ReleaseHealthSummary = Type.Object(Summary, { additionalProperties: false });

export const ReleaseHealthEntry = Type.Object(
  {
    ...Summary,
    comparison: Type.Object(
      {
        previous: NullableString({ description: 'The release before this one' }),
        crashFreeSessionsChange: Type.Union([Type.Number(), Type.Null()]),
        crashFreeUsersChange: Type.Union([Type.Number(), Type.Null()]),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

export const ProjectHealth = Type.Object(
  {
    since: Timestamp,
    until: Timestamp,
    latest: Type.Union([ReleaseHealthEntry, Type.Null()], { description: 'The newest release' }),
    releases: Type.Array(ReleaseHealthEntry),
  },
  { additionalProperties: false },
);

export const ReleaseHealth = Type.Object(
  {
    since: Timestamp,
    until: Timestamp,
    bucket: StringEnum(['hour', 'day'] as const),
    release: ReleaseHealthEntry,
    previous: Type.Union([ReleaseHealthSummary, Type.Null()]),
    series: Type.Array(
      Type.Object(
        {
          start: Timestamp,
          versionChecks: Type.Integer(),
          sessions: Type.Integer(),
          crashed: Type.Integer(),
          errored: Type.Integer(),
          unhandled: Type.Integer(),
          abnormal: Type.Integer(),
          users: Type.Integer(),
          crashedUsers: Type.Integer(),
          crashFreeSessions: Rate,
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

/** When `release.health_dropped` is told (issue 33). */
export const DropSettings = Type.Object(
  {
    crashFreeThreshold: Type.Number({
      minimum: 0,
      maximum: 100,
      description: 'Percent: a release below this many crash-free sessions has dropped (default 99)',
    }),
    maxDropPoints: Type.Number({
      minimum: 0,
      maximum: 100,
      description: 'Percentage points: a release this far below the previous release has dropped (default 5)',
    }),
    minSessions: Type.Integer({
      minimum: 1,
      maximum: 1_000_000,
      description: 'A release with fewer sessions is not judged (default 10)',
    }),
  },
  { additionalProperties: false },
);

export const DropSettingsBody = Type.Partial(DropSettings, { additionalProperties: false, minProperties: 1 });
