import { Type } from 'typebox';
import { MAX_OFFSET, Paging, StringEnum, Timestamp } from '../../http/common-schemas.ts';
import { NullableString, pageFields, ProjectParams } from '../../http/management-schemas.ts';
import { STANDALONE_STATUSES } from './store.ts';

export const STATUS_KEYS = Object.keys(STANDALONE_STATUSES) as Array<keyof typeof STANDALONE_STATUSES>;
const StatusKey = StringEnum(STATUS_KEYS as unknown as readonly ['new', 'improved', 'fixed'], {
  description:
    'Standalone entries: new ("New"), improved ("Improved") or fixed ("Fixed"). Linked entries show their feature\'s status instead.',
});

const EntryStateSchema = StringEnum(['draft', 'scheduled', 'published'] as const, {
  description: 'draft; scheduled (a draft with publishAt: published by the server at that time); published',
});

/** A future time; in the past (or now) it is refused with 400: use publish to publish now. */
const PublishAt = Type.Union([Timestamp, Type.Null()], {
  description:
    'Schedule a draft: the server publishes it at this time (ISO 8601 date-time, in the future; a past time is a 400, publish instead). null clears the schedule.',
});

const Announcement = Type.Boolean({
  description:
    'An announcement: "What\'s new" in the host app opens it once as a popup for each reader who has not seen it',
});

export const EntryParams = Type.Object({
  ...ProjectParams.properties,
  entryId: Type.String({ minLength: 1, maxLength: 100 }),
});

export const ManagedEntry = Type.Object(
  {
    id: Type.String(),
    projectId: Type.String(),
    featureId: NullableString({ description: 'The first linked feature' }),
    featureIds: Type.Array(Type.String(), { description: 'Every linked feature, in order' }),
    features: Type.Array(
      Type.Object({ id: Type.String(), title: Type.String(), status: Type.String() }, { additionalProperties: false }),
      { description: 'The linked features, in order, with their title and status as they are now' },
    ),
    featureTitle: Type.String(),
    featureType: Type.String(),
    featureInternal: Type.Boolean({
      description: 'The linked feature is internal: the public changelog leaves this entry out',
    }),
    statusKey: Type.String(),
    statusLabel: Type.String(),
    summary: Type.String(),
    description: Type.String({ description: 'Sanitised HTML' }),
    published: Type.Boolean(),
    createdAt: Timestamp,
    publishedAt: Type.Union([Timestamp, Type.Null()]),
    publishAt: Type.Union([Timestamp, Type.Null()], {
      description: 'A scheduled draft: when the server publishes it; null otherwise',
    }),
    state: EntryStateSchema,
    announcement: Announcement,
  },
  { additionalProperties: false },
);

export const ListEntriesQuery = Type.Object({
  published: Type.Optional(
    Type.Boolean({ description: 'true: published only; false: drafts (scheduled ones too) only; omitted: both' }),
  ),
  state: Type.Optional(EntryStateSchema),
  featureId: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  q: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  ...Paging(50),
});

export const EntryPage = Type.Object(
  { entries: Type.Array(ManagedEntry), ...pageFields },
  { additionalProperties: false },
);

export const MAX_LINKED_FEATURES = 50;
const FeatureIds = Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
  maxItems: MAX_LINKED_FEATURES,
  uniqueItems: true,
  description:
    'The features of this project the entry ships, in order ([]: standalone); publishing moves them to done (the board setting shipOnPublish). Send featureId or featureIds, not both.',
});

const Summary = Type.String({ minLength: 1, maxLength: 200 });
const Description = Type.String({
  maxLength: 50_000,
  description: 'HTML; sanitised on write (scripts, event handlers and unsafe URLs removed)',
});

export const CreateEntryBody = Type.Object({
  summary: Summary,
  description: Type.Optional(Description),
  featureId: Type.Optional(
    NullableString({
      minLength: 1,
      maxLength: 100,
      description: 'Link to a feature of this project; omitted or null: standalone',
    }),
  ),
  featureIds: Type.Optional(FeatureIds),
  statusKey: Type.Optional(StatusKey),
  published: Type.Optional(Type.Boolean({ description: 'Publish at once (default false: a draft)' })),
  publishAt: Type.Optional(PublishAt),
  announcement: Type.Optional(Announcement),
});

export const UpdateEntryBody = Type.Object(
  {
    summary: Type.Optional(Summary),
    description: Type.Optional(Description),
    featureId: Type.Optional(NullableString({ minLength: 1, maxLength: 100, description: 'null unlinks' })),
    featureIds: Type.Optional(FeatureIds),
    statusKey: Type.Optional(StatusKey),
    publishAt: Type.Optional(PublishAt),
    announcement: Type.Optional(Announcement),
  },
  {
    description:
      'At least one field. Publishing has its own routes; publishAt schedules a draft (409 for a published entry: unpublish it first).',
  },
);
export const UPDATE_FIELDS = [
  'summary',
  'description',
  'featureId',
  'featureIds',
  'statusKey',
  'publishAt',
  'announcement',
] as const;

// The public GET /changelog.

export const ChangelogEntry = Type.Object(
  {
    id: Type.String(),
    featureId: Type.Optional(Type.String()),
    projectId: Type.String(),
    featureTitle: Type.String(),
    featureType: Type.String(),
    statusKey: Type.String(),
    statusLabel: Type.String(),
    summary: Type.String(),
    description: Type.String({ description: 'HTML' }),
    published: Type.Boolean(),
    createdAt: Timestamp,
    publishedAt: Type.Union([Timestamp, Type.Null()]),
  },
  { additionalProperties: false },
);

export const ChangelogQuery = Type.Object({
  published: Type.Optional(Type.Boolean({ description: 'Omitted: published entries only. false: drafts.' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, default: 50 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_OFFSET, default: 0 })),
});

export const PreviewBody = Type.Object({ description: Description });
export const PreviewAnswer = Type.Object(
  { description: Type.String({ description: 'The HTML as the server would store it (sanitised)' }) },
  { additionalProperties: false },
);
