/** The release hub's management API schemas (issue 33): requests and responses apart. */
import { Type } from 'typebox';
import { StringEnum, Timestamp } from '../../http/common-schemas.ts';
import { KeyEnvironmentSchema, NullableString, ProjectParams } from '../../http/management-schemas.ts';
import { ReleaseHealthSummary } from '../release-health/index.ts';

const Id = Type.String({ minLength: 1, maxLength: 100 });
export const GroupParams = Type.Object({ ...ProjectParams.properties, groupId: Id });
export const GroupLinkParams = Type.Object({ ...GroupParams.properties, featureId: Id });
export const FeatureParams = Type.Object({ ...ProjectParams.properties, featureId: Id });
export const OverviewParams = Type.Object({
  ...ProjectParams.properties,
  version: Type.String({
    minLength: 1,
    maxLength: 200,
    description: 'As listed, or as an SDK sends it (`shop@1.4.2`)',
  }),
});
export const OverviewQuery = Type.Object({
  environment: Type.Optional(KeyEnvironmentSchema),
  days: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 90, default: 14, description: 'Health over the days up to now' }),
  ),
});

export const LinkBody = Type.Object({ featureId: Id }, { additionalProperties: false });
export const ResolveBody = Type.Object(
  {
    release: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'Resolved in this release (`2.4.1`, `shop@2.4.1`); omitted: in the next release',
      }),
    ),
    notify: Type.Optional(Type.Boolean({ description: 'Tell followers when it ships; default true' })),
  },
  { additionalProperties: false },
);

export const Group = Type.Object(
  {
    id: Type.String(),
    title: Type.String(),
    status: Type.String(),
    level: Type.String(),
    sdkEnvironment: Type.String(),
    events: Type.Integer(),
    users: Type.Integer(),
    firstSeenAt: Timestamp,
    lastSeenAt: Timestamp,
    firstRelease: NullableString(),
    lastRelease: NullableString(),
    resolvedInRelease: NullableString(),
    regressedInRelease: NullableString(),
  },
  { additionalProperties: false },
);

const Feature = Type.Object(
  { id: Type.String(), title: Type.String(), type: Type.String(), status: Type.String() },
  { additionalProperties: false },
);

export const Resolution = Type.Object(
  {
    itemType: StringEnum(['feature', 'errorGroup'] as const),
    itemId: Type.String(),
    release: NullableString({ description: 'The release asked for; null: the next release' }),
    afterRelease: NullableString({ description: 'With the next release: a release newer than this one' }),
    notify: Type.Boolean(),
    resolvedInRelease: NullableString({ description: 'The release it shipped in, once live' }),
    createdAt: Timestamp,
    resolvedAt: Type.Union([Timestamp, Type.Null()]),
  },
  { additionalProperties: false },
);

const Reporter = Type.Object(
  {
    bugReportId: Type.String(),
    name: NullableString(),
    email: NullableString(),
    reportedAt: Timestamp,
  },
  { additionalProperties: false },
);

export const GroupLinks = Type.Object(
  {
    items: Type.Array(Type.Object({ ...Feature.properties, source: Type.String(), linkedAt: Timestamp })),
    reporters: Type.Array(Reporter, { description: 'People who reported its events (Sentry feedback, bug reports)' }),
    resolution: Type.Union([Resolution, Type.Null()]),
  },
  { additionalProperties: false },
);

export const FeatureLinks = Type.Object(
  {
    groups: Type.Array(Type.Object({ ...Group.properties, source: Type.String(), linkedAt: Timestamp })),
    events: Type.Integer({ description: 'Events of its linked groups' }),
    users: Type.Integer({ description: 'Distinct users of its linked groups' }),
    resolution: Type.Union([Resolution, Type.Null()]),
  },
  { additionalProperties: false },
);

const Broke = Type.Object(
  { groups: Type.Integer(), events: Type.Integer(), users: Type.Integer(), list: Type.Array(Group) },
  { additionalProperties: false },
);
const Change = Type.Union([Type.Number(), Type.Null()]);

export const ReleaseOverview = Type.Object(
  {
    version: Type.String(),
    since: Timestamp,
    until: Timestamp,
    health: Type.Union([ReleaseHealthSummary, Type.Null()]),
    broke: Type.Object({ new: Broke, regressed: Broke }, { additionalProperties: false }),
    shipped: Type.Object(
      {
        items: Type.Array(Feature),
        errorGroups: Type.Array(Group),
        changelogEntry: Type.Union([
          Type.Object(
            {
              id: Type.String(),
              summary: Type.String(),
              published: Type.Boolean(),
              publishedAt: Type.Union([Timestamp, Type.Null()]),
            },
            { additionalProperties: false },
          ),
          Type.Null(),
        ]),
      },
      { additionalProperties: false },
    ),
    comparison: Type.Object(
      {
        previous: NullableString(),
        crashFreeSessionsChange: Change,
        crashFreeUsersChange: Change,
        usersChange: Change,
        versionChecksChange: Change,
        newGroupsChange: Change,
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
