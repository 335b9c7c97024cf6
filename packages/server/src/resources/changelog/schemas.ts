import { Type } from 'typebox';
import { MAX_OFFSET, Paging, StringEnum, Timestamp } from '../../http/common-schemas.ts';
import { NullableString, pageFields, ProjectParams } from '../../http/management-schemas.ts';
import { STANDALONE_STATUSES } from './store.ts';

export const STATUS_KEYS = Object.keys(STANDALONE_STATUSES) as Array<keyof typeof STANDALONE_STATUSES>;
const StatusKey = StringEnum(STATUS_KEYS as unknown as readonly ['new', 'improved', 'fixed'], {
  description:
    'Standalone entries: new ("New"), improved ("Improved") or fixed ("Fixed"). Linked entries show their feature\'s status instead.',
});

export const EntryParams = Type.Object({
  ...ProjectParams.properties,
  entryId: Type.String({ minLength: 1, maxLength: 100 }),
});

export const ManagedEntry = Type.Object(
  {
    id: Type.String(),
    projectId: Type.String(),
    featureId: NullableString(),
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
  },
  { additionalProperties: false },
);

export const ListEntriesQuery = Type.Object({
  published: Type.Optional(Type.Boolean({ description: 'true: published only; false: drafts only; omitted: both' })),
  featureId: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  q: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  ...Paging(50),
});

export const EntryPage = Type.Object(
  { entries: Type.Array(ManagedEntry), ...pageFields },
  { additionalProperties: false },
);

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
  statusKey: Type.Optional(StatusKey),
  published: Type.Optional(Type.Boolean({ description: 'Publish at once (default false: a draft)' })),
});

export const UpdateEntryBody = Type.Object(
  {
    summary: Type.Optional(Summary),
    description: Type.Optional(Description),
    featureId: Type.Optional(NullableString({ minLength: 1, maxLength: 100, description: 'null unlinks' })),
    statusKey: Type.Optional(StatusKey),
  },
  { description: 'At least one field. Publishing has its own routes.' },
);
export const UPDATE_FIELDS = ['summary', 'description', 'featureId', 'statusKey'] as const;

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
