import { Type, type Static } from 'typebox';
import { Paging, StringEnum, Timestamp } from '../../http/common-schemas.ts';

export const FEATURE_STATUSES = [
  'new',
  'open',
  'planned',
  'in-progress',
  'in-review',
  'accepted',
  'done',
  'declined',
] as const;
/** The statuses a public filter accepts: everything but `new`, which is still being triaged. */
export const FILTER_STATUSES = ['open', 'planned', 'in-progress', 'in-review', 'accepted', 'done', 'declined'] as const;
export const FEATURE_TYPES = ['feature', 'bug'] as const;
export const SUBMITTED_TYPES = ['bug', 'feature', 'error'] as const;
export const CHANNELS = ['widget', 'sdk'] as const;

export type FeatureStatus = (typeof FEATURE_STATUSES)[number];

export const INVALID_TYPE_MESSAGE = 'Invalid type. Allowed values: bug, feature, error';

/** Length bounds of a submitted item, the same on every surface (REST, MCP; bug reports are cut to them). */
export const TITLE_LENGTH = { min: 4, max: 120 } as const;
export const DESCRIPTION_LENGTH = { min: 12, max: 1000 } as const;

export const FeatureId = Type.Object({ featureId: Type.String({ minLength: 1, maxLength: 100 }) });

export const CreateFeatureBody = Type.Object({
  title: Type.String({ minLength: TITLE_LENGTH.min, maxLength: TITLE_LENGTH.max }),
  description: Type.String({ minLength: DESCRIPTION_LENGTH.min, maxLength: DESCRIPTION_LENGTH.max }),
  contactEmail: Type.Optional(Type.String({ format: 'email', maxLength: 320 })),
  metadata: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  type: Type.Optional(StringEnum(SUBMITTED_TYPES)),
  internal: Type.Optional(Type.Boolean()),
  channel: Type.Optional(StringEnum(CHANNELS)),
});
export type CreateFeatureBody = Static<typeof CreateFeatureBody>;

const featureCore = {
  id: Type.String(),
  projectId: Type.String(),
  title: Type.String(),
  status: StringEnum(FEATURE_STATUSES),
  type: StringEnum(FEATURE_TYPES),
  voteCount: Type.Integer(),
  commentCount: Type.Integer(),
  createdAt: Timestamp,
};

export const FeatureListItem = Type.Object(featureCore, { additionalProperties: false });

export const PublicFeature = Type.Object(
  { ...featureCore, description: Type.String(), internal: Type.Boolean() },
  { additionalProperties: false },
);

export const CreatedFeature = Type.Object(
  { ...featureCore, description: Type.String(), internal: Type.Boolean(), message: Type.String() },
  { additionalProperties: false },
);

export const FullFeature = Type.Object(
  {
    ...featureCore,
    description: Type.String(),
    internal: Type.Boolean(),
    developerNotes: Type.Union([Type.String(), Type.Null()]),
  },
  { additionalProperties: false },
);

export const PatchFeatureBody = Type.Object(
  {
    internal: Type.Optional(Type.Boolean()),
    status: Type.Optional(StringEnum(FEATURE_STATUSES)),
    developerNotes: Type.Optional(Type.String({ maxLength: 10000 })),
  },
  { description: 'At least one of internal, status, developerNotes; other fields are ignored.' },
);
export type PatchFeatureBody = Static<typeof PatchFeatureBody>;

export const ListFeaturesQuery = Type.Object({
  status: Type.Optional(StringEnum(FILTER_STATUSES)),
  type: Type.Optional(StringEnum(FEATURE_TYPES)),
  ...Paging(50),
});
export type ListFeaturesQuery = Static<typeof ListFeaturesQuery>;

export const FeatureList = Type.Object(
  { features: Type.Array(FeatureListItem), count: Type.Integer(), limit: Type.Integer(), offset: Type.Integer() },
  { additionalProperties: false },
);

/** Moderation (status, visibility, notes) is the team's: never with a key that sits in page source. */
export const PUBLISHABLE_PATCH_REFUSAL = 'Publishable keys cannot modify features';
