/** TypeBox schemas of the board's management routes: settings, the SSO secret, the moderation queue. */
import { Type } from 'typebox';
import { Paging, StringEnum, Timestamp } from '../../http/common-schemas.ts';
import { KeyEnvironmentSchema, NullableString, pageFields, ProjectParams } from '../../http/management-schemas.ts';
import { FILTER_STATUSES } from '../features/index.ts';

export const ROADMAP_LABEL_MAX = 40;
const RoadmapColumn = Type.Object(
  {
    status: StringEnum(FILTER_STATUSES),
    label: NullableString({ maxLength: ROADMAP_LABEL_MAX, description: 'null: the status’s own label' }),
  },
  { additionalProperties: false },
);

export const TITLE_MAX = 80;
export const LOGO_URL_MAX = 500;
export const DOMAIN_MAX = 253;

export const BoardSettings = Type.Object(
  {
    enabled: Type.Boolean({ description: 'The board answers at its address; off: 404 there' }),
    private: Type.Boolean({ description: 'Only people signed in through the host app (SSO) see the board' }),
    title: NullableString({ description: 'Shown in the header; null: the project name' }),
    logoUrl: NullableString(),
    accentColor: NullableString({ description: '#rrggbb' }),
    customDomain: NullableString({ description: 'Lower-case host name; the board answers at / of this Host' }),
    anonymousVotes: Type.Boolean({ description: 'Visitors vote without signing in (limited per client)' }),
    moderation: Type.Boolean({ description: 'New ideas and comments wait for the team’s approval' }),
    shipOnPublish: Type.Boolean({
      description: 'Publishing a changelog entry moves the ideas it links to done (default true)',
    }),
    roadmapColumns: Type.Array(RoadmapColumn, {
      description:
        'The board roadmap’s columns, in order (default: every public status but declined). The public REST roadmap keeps the spec’s columns.',
    }),
    url: Type.String({
      description: 'The board’s address: https://<customDomain>/ when one is set, else <PUBLIC_URL>/b/<slug>',
    }),
    sso: Type.Object(
      {
        configured: Type.Boolean({ description: 'A secret was made (POST …/board/sso-secret)' }),
        hint: NullableString({ description: 'The last characters of the current secret' }),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

export const UpdateBoardBody = Type.Object(
  {
    enabled: Type.Optional(Type.Boolean()),
    private: Type.Optional(Type.Boolean()),
    title: Type.Optional(NullableString({ minLength: 1, maxLength: TITLE_MAX })),
    logoUrl: Type.Optional(
      NullableString({ minLength: 1, maxLength: LOGO_URL_MAX, description: 'https (http only on localhost)' }),
    ),
    accentColor: Type.Optional(NullableString({ pattern: '^#[0-9a-fA-F]{6}$', description: '#rrggbb' })),
    customDomain: Type.Optional(
      NullableString({
        minLength: 1,
        maxLength: DOMAIN_MAX,
        description: 'A host name (no scheme, port or path), e.g. feedback.example.com',
      }),
    ),
    anonymousVotes: Type.Optional(Type.Boolean()),
    moderation: Type.Optional(Type.Boolean()),
    shipOnPublish: Type.Optional(Type.Boolean()),
    roadmapColumns: Type.Optional(
      Type.Union(
        [
          Type.Array(
            Type.Object(
              {
                status: StringEnum(FILTER_STATUSES),
                label: Type.Optional(NullableString({ maxLength: ROADMAP_LABEL_MAX })),
              },
              { additionalProperties: false },
            ),
            { minItems: 1, maxItems: FILTER_STATUSES.length },
          ),
          Type.Null(),
        ],
        { description: 'The statuses shown as columns, in order, each at most once; null: the default' },
      ),
    ),
  },
  {
    additionalProperties: false,
    description: 'At least one field. null clears title, logoUrl, accentColor or customDomain.',
  },
);
export const UPDATE_FIELDS = [
  'enabled',
  'private',
  'title',
  'logoUrl',
  'accentColor',
  'customDomain',
  'anonymousVotes',
  'moderation',
  'shipOnPublish',
  'roadmapColumns',
] as const;

export const SsoSecret = Type.Object(
  {
    secret: Type.String({
      description:
        'HS256 key for the tokens your app signs (sub, email, name). Shown only in this response; rotating again replaces it.',
    }),
    hint: Type.String(),
  },
  { additionalProperties: false },
);

export const MODERATION_KINDS = ['idea', 'comment'] as const;

export const ModerationQuery = Type.Object({
  kind: Type.Optional(StringEnum(MODERATION_KINDS)),
  ...Paging(50),
});

export const ModerationItem = Type.Object(
  {
    kind: StringEnum(MODERATION_KINDS),
    id: Type.String({ description: 'The idea’s id (a feature id) or the comment’s id' }),
    featureId: Type.String(),
    featureTitle: Type.String({ description: 'The idea’s title (for a comment: the idea it is on)' }),
    body: Type.String({ description: 'The idea’s description or the comment’s text' }),
    environment: KeyEnvironmentSchema,
    authorName: NullableString(),
    boardUserId: NullableString({ description: 'The board user who wrote it' }),
    createdAt: Timestamp,
  },
  { additionalProperties: false },
);

export const ModerationPage = Type.Object(
  { items: Type.Array(ModerationItem), ...pageFields },
  { additionalProperties: false },
);

export const ModerationIdeaParams = Type.Object({
  ...ProjectParams.properties,
  featureId: Type.String({ minLength: 1, maxLength: 100 }),
});
export const ModerationCommentParams = Type.Object({
  ...ProjectParams.properties,
  commentId: Type.String({ minLength: 1, maxLength: 100 }),
});

export const ModerationDecision = Type.Object(
  {
    kind: StringEnum(MODERATION_KINDS),
    id: Type.String(),
    featureId: Type.String(),
    decision: StringEnum(['approved', 'rejected', 'spam'] as const, {
      description: '`spam`: rejected, and its author (a board user) marked as spam: what they post next is held',
    }),
    authorMarkedSpam: Type.Optional(
      Type.Boolean({ description: 'Spam only: whether a board user wrote it (false: it came through the API)' }),
    ),
  },
  { additionalProperties: false },
);
