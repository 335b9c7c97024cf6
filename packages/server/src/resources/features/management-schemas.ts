import { Type } from 'typebox';
import { PersonSummary } from '../people/index.ts';
import { Paging, StringEnum, Timestamp } from '../../http/common-schemas.ts';
import { DESCRIPTION_LENGTH, FEATURE_STATUSES, FEATURE_TYPES, TITLE_LENGTH } from './schemas.ts';
import { SEARCH_COUNT_CAP } from './search-read-model.ts';
import { KeyEnvironmentSchema, NullableString, pageFields, ProjectParams } from '../../http/management-schemas.ts';

export const FeatureParams = Type.Object({
  ...ProjectParams.properties,
  featureId: Type.String({ minLength: 1, maxLength: 100 }),
});
export const VoteParams = Type.Object({
  ...FeatureParams.properties,
  voterId: Type.String({ minLength: 1, maxLength: 200 }),
});
export const CommentParams = Type.Object({
  ...FeatureParams.properties,
  commentId: Type.String({ minLength: 1, maxLength: 100 }),
});

export const IdeaTagSchema = Type.Object(
  { id: Type.String(), name: Type.String(), color: NullableString({ description: '#rrggbb, or null' }) },
  { additionalProperties: false },
);

export const ManagedFeature = Type.Object(
  {
    id: Type.String(),
    projectId: Type.String(),
    environment: KeyEnvironmentSchema,
    title: Type.String(),
    description: Type.String(),
    type: StringEnum(FEATURE_TYPES),
    status: StringEnum(FEATURE_STATUSES),
    internal: Type.Boolean(),
    developerNotes: NullableString(),
    voteCount: Type.Integer(),
    commentCount: Type.Integer(),
    channel: NullableString(),
    contactEmail: NullableString(),
    metadata: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    triagedAt: Type.Union([Timestamp, Type.Null()], {
      description: 'When the team first acted on it (status, edit, reply, mark triaged); null: it needs triage',
    }),
    tags: Type.Array(IdeaTagSchema, { description: "The idea's tags, by name" }),
    statusResponse: NullableString({ description: 'The official response given with the latest status change' }),
    value: Type.Optional(
      Type.Number({
        description:
          "In lists: the monthly revenue of the voters' companies (each company once), from the SSO company claim",
      }),
    ),
  },
  { additionalProperties: false },
);

export const FEATURE_SORTS = ['newest', 'oldest', 'votes', 'comments', 'updated', 'trending', 'value'] as const;

export const ListFeaturesQuery = Type.Object({
  environment: Type.Optional(KeyEnvironmentSchema),
  status: Type.Optional(StringEnum(FEATURE_STATUSES)),
  type: Type.Optional(StringEnum(FEATURE_TYPES)),
  internal: Type.Optional(
    Type.Boolean({ description: 'true: internal items only; false: public items only; omitted: both' }),
  ),
  q: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description:
        "Words searched in title and description with the full-text index, as the board does: every word as a prefix, a word matching nothing also as its likely typo's corrections",
    }),
  ),
  tag: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'Only items carrying this tag (a tag id of the project)',
    }),
  ),
  company: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 100,
      description:
        "Only items voted for or submitted by people of this company of the project: the host app's company id (a person's company.externalId)",
    }),
  ),
  triaged: Type.Optional(
    Type.Boolean({
      description: 'false: the "needs triage" view (not triaged yet, held ones left to moderation); true: triaged only',
    }),
  ),
  sort: Type.Optional(
    StringEnum(FEATURE_SORTS, {
      default: 'newest',
      description:
        "newest / oldest: by creation; votes: most votes, then newest; comments: most comments, then newest; updated: last changed first; trending: most votes cast in the last 7 days, ties by votes overall, then newest; value: highest monthly revenue of the voters' companies first, then most votes",
    }),
  ),
  ...Paging(50),
});

export const FeaturePage = Type.Object(
  {
    features: Type.Array(ManagedFeature),
    ...pageFields,
    total: Type.Integer({
      description: `Items matching the filters; a search counts up to ${SEARCH_COUNT_CAP + 1}: more than ${SEARCH_COUNT_CAP} shows as ${SEARCH_COUNT_CAP + 1} (see totalCapped)`,
    }),
    totalCapped: Type.Boolean({
      description: `More than ${SEARCH_COUNT_CAP} items match a search: total is not exact`,
    }),
  },
  { additionalProperties: false },
);

export const UpdateFeatureBody = Type.Object(
  {
    title: Type.Optional(Type.String({ minLength: 4, maxLength: 120 })),
    description: Type.Optional(Type.String({ minLength: 1, maxLength: 5000 })),
    type: Type.Optional(StringEnum(FEATURE_TYPES)),
    status: Type.Optional(StringEnum(FEATURE_STATUSES)),
    internal: Type.Optional(Type.Boolean()),
    developerNotes: Type.Optional(NullableString({ maxLength: 10000 })),
    response: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 5000,
        description: "With status: the team's official response, shown on the idea and in the followers' e-mail",
      }),
    ),
    notify: Type.Optional(
      Type.Boolean({
        description:
          'With status: false tells no follower (default true). A told change waits for the undo window and is collapsed with the changes made in it',
      }),
    ),
  },
  { description: 'At least one field. `developerNotes: null` clears the notes.' },
);
export const UPDATE_FIELDS = ['title', 'description', 'type', 'status', 'internal', 'developerNotes'] as const;
/** Fields that go only with `status`. */
export const STATUS_CHANGE_FIELDS = ['response', 'notify'] as const;

export const OnBehalfBody = Type.Object(
  {
    title: Type.String({ minLength: TITLE_LENGTH.min, maxLength: TITLE_LENGTH.max }),
    description: Type.String({ minLength: DESCRIPTION_LENGTH.min, maxLength: DESCRIPTION_LENGTH.max }),
    type: Type.Optional(StringEnum(FEATURE_TYPES)),
    internal: Type.Optional(Type.Boolean({ description: 'true hides it from the board; default public' })),
    personId: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: "The person it is filed for (one of the project's people)",
      }),
    ),
    email: Type.Optional(
      Type.String({
        format: 'email',
        maxLength: 320,
        description: 'Instead of personId: their address; the person with it, or a new person',
      }),
    ),
    name: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'With email: their name, kept when they have none yet',
      }),
    ),
  },
  { description: 'Exactly one of personId and email. The idea is theirs, with their vote; it starts triaged.' },
);

export const MergeBody = Type.Object({
  targetId: Type.String({
    minLength: 1,
    maxLength: 100,
    description: 'The feature that is kept and receives votes and comments',
  }),
});

export const MergeResult = Type.Object(
  {
    feature: ManagedFeature,
    mergedId: Type.String({ description: 'The duplicate, which no longer exists' }),
    votesMoved: Type.Integer(),
    votesAlreadyPresent: Type.Integer({ description: 'Voters who had voted for both; counted once' }),
    commentsMoved: Type.Integer(),
    changelogEntriesMoved: Type.Integer(),
  },
  { additionalProperties: false },
);

export const VotePage = Type.Object(
  {
    votes: Type.Array(
      Type.Object(
        { voterId: Type.String(), createdAt: Timestamp, person: Type.Union([PersonSummary, Type.Null()]) },
        { additionalProperties: false },
      ),
    ),
    ...pageFields,
  },
  { additionalProperties: false },
);

export const Comment = Type.Object(
  {
    id: Type.String(),
    featureId: Type.String(),
    body: Type.String(),
    authorName: NullableString(),
    person: Type.Union([PersonSummary, Type.Null()], { description: 'The board user who wrote it, as a person' }),
    team: Type.Boolean({ description: 'Written by a team member: a "Team" badge on the board' }),
    internal: Type.Boolean({ description: 'A note for the team only: never on the board, the public API or e-mails' }),
    accountId: NullableString({ description: 'The team member who wrote it' }),
    editedAt: Type.Union([Timestamp, Type.Null()]),
    hidden: Type.Boolean({
      description: 'Not shown on the board or by the public API (hidden by the team, or held for moderation)',
    }),
    createdAt: Timestamp,
  },
  { additionalProperties: false },
);
export const CommentPage = Type.Object(
  { comments: Type.Array(Comment), ...pageFields },
  { additionalProperties: false },
);

export const Counts = Type.Object(
  { featureId: Type.String(), removed: Type.Boolean(), voteCount: Type.Integer(), commentCount: Type.Integer() },
  { additionalProperties: false },
);

export const PageQuery = (defaultLimit: number) => Type.Object({ ...Paging(defaultLimit) });

export const BULK_MAX = 100;

export const BulkBody = Type.Object(
  {
    featureIds: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
      minItems: 1,
      maxItems: BULK_MAX,
      description: `The items to change (1 to ${BULK_MAX}), all of this project`,
    }),
    status: Type.Optional(StringEnum(FEATURE_STATUSES)),
    internal: Type.Optional(Type.Boolean()),
    addTagIds: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 20 })),
    removeTagIds: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 20 })),
  },
  {
    description:
      'At least one change. Applied to every item in one transaction, all or nothing: an id or tag id the project does not have refuses the whole change (400). A status change tells followers as a single change does.',
  },
);

export const BulkResult = Type.Object(
  { features: Type.Array(ManagedFeature), updated: Type.Integer() },
  { additionalProperties: false },
);

export const SimilarQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 20, default: 5 })),
});

export const SimilarList = Type.Object(
  {
    features: Type.Array(ManagedFeature, {
      description:
        'Items of the same project and key environment whose title or description shares words with this one’s title, best match first; itself excluded',
    }),
  },
  { additionalProperties: false },
);

export const CommentVisibilityBody = Type.Object(
  {
    hidden: Type.Optional(
      Type.Boolean({
        description: 'true hides the comment from the board and the public API; false shows it',
      }),
    ),
    body: Type.Optional(Type.String({ minLength: 1, maxLength: 5000, description: 'New text of your own comment' })),
  },
  { description: 'At least one field.' },
);

export const TeamCommentBody = Type.Object({
  body: Type.String({ minLength: 1, maxLength: 5000 }),
  internal: Type.Optional(
    Type.Boolean({
      default: false,
      description: 'true: an internal note, seen only by the team (dashboard and management API)',
    }),
  ),
});

export const CommentResult = Type.Object(
  { comment: Comment, voteCount: Type.Integer(), commentCount: Type.Integer() },
  { additionalProperties: false },
);

export const TriageBody = Type.Object(
  { ids: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { minItems: 1, maxItems: 100, uniqueItems: true }) },
  { additionalProperties: false },
);

export const TriageResult = Type.Object(
  { triaged: Type.Array(Type.String(), { description: 'The ids of the project now triaged' }) },
  { additionalProperties: false },
);
