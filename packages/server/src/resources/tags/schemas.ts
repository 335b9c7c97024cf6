/** TypeBox schemas of the tags management routes. */
import { Type } from 'typebox';
import { Timestamp } from '../../http/common-schemas.ts';
import { NullableString, ProjectParams } from '../../http/management-schemas.ts';

export const TAG_NAME_MAX = 40;
export const TAGS_PER_FEATURE_MAX = 20;

export const TagParams = Type.Object({
  ...ProjectParams.properties,
  tagId: Type.String({ minLength: 1, maxLength: 100 }),
});

export const FeatureTagParams = Type.Object({
  ...ProjectParams.properties,
  featureId: Type.String({ minLength: 1, maxLength: 100 }),
});

const Name = Type.String({
  minLength: 1,
  maxLength: TAG_NAME_MAX,
  description: `1 to ${TAG_NAME_MAX} characters (leading and trailing spaces are trimmed), unique in the project`,
});
const Color = Type.String({ pattern: '^#[0-9a-fA-F]{6}$', description: 'A colour as #rrggbb' });

export const Tag = Type.Object(
  {
    id: Type.String(),
    projectId: Type.String(),
    name: Type.String(),
    color: NullableString({ description: '#rrggbb, or null' }),
    createdAt: Timestamp,
  },
  { additionalProperties: false },
);

export const TagList = Type.Object({ tags: Type.Array(Tag) }, { additionalProperties: false });

export const CreateTagBody = Type.Object({ name: Name, color: Type.Optional(Type.Union([Color, Type.Null()])) });

export const UpdateTagBody = Type.Object(
  {
    name: Type.Optional(Name),
    color: Type.Optional(Type.Union([Color, Type.Null()], { description: 'null removes the colour' })),
  },
  { description: 'At least one field' },
);
export const UPDATE_FIELDS = ['name', 'color'] as const;

export const SetFeatureTagsBody = Type.Object({
  tagIds: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
    maxItems: TAGS_PER_FEATURE_MAX,
    description: "The idea's tags from now on (replaces the current ones; [] removes all)",
  }),
});

export const FeatureTags = Type.Object(
  { featureId: Type.String(), tags: Type.Array(Tag) },
  { additionalProperties: false },
);
