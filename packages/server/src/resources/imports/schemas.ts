import { Type } from 'typebox';
import { StringEnum } from '../../http/common-schemas.ts';
import { KeyEnvironmentSchema } from '../../http/management-schemas.ts';
import { FEATURE_STATUSES } from '../features/index.ts';
import { IMPORT_SOURCES } from './sources.ts';

export const ImportQuery = Type.Object({
  source: StringEnum(IMPORT_SOURCES, {
    description:
      'canny (API dump: JSON file, or zip of boards/users/posts/votes/comments/entries.json), canny-csv, uservoice (CSV, or zip with the comments CSV), featurebase (JSON or CSV), fider (backup zip), csv (generic, with columns)',
  }),
  dryRun: Type.Optional(Type.Boolean({ default: false, description: 'Report what a run would do; store nothing' })),
  environment: Type.Optional(KeyEnvironmentSchema),
  map: Type.Optional(
    Type.String({
      maxLength: 4000,
      description: `Status table entries over the defaults, comma-separated: \`under review=planned,complete=done\`; a target is one of ${FEATURE_STATUSES.join(', ')} or skip`,
    }),
  ),
  columns: Type.Optional(
    Type.String({
      maxLength: 4000,
      description:
        'The generic CSV: which header holds each field, comma-separated (`title=Summary,description=Body`); fields id, title, description, status, type, authorEmail, authorName, createdAt, voters',
    }),
  ),
  filename: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'The uploaded file\u2019s name, for the report and errors',
    }),
  ),
});

const Counts = <T extends string>(names: readonly T[], description?: string) =>
  Type.Object(
    Object.fromEntries(names.map((name) => [name, Type.Integer({ minimum: 0 })])) as Record<
      T,
      ReturnType<typeof Type.Integer>
    >,
    {
      additionalProperties: false,
      ...(description ? { description } : {}),
    },
  );

export const ImportReportSchema = Type.Object(
  {
    source: StringEnum(IMPORT_SOURCES),
    dryRun: Type.Boolean(),
    ideas: Counts(['created', 'updated', 'unchanged', 'skipped', 'truncated'] as const),
    votes: Counts(['created', 'unchanged', 'skipped'] as const),
    comments: Counts(['created', 'updated', 'unchanged', 'skipped'] as const),
    people: Counts(['created', 'matched'] as const),
    tags: Counts(
      ['created', 'matched'] as const,
      'The source’s boards, categories and tags as tags of the project: made, or found by name',
    ),
    changelog: Counts(['created', 'updated', 'unchanged'] as const, 'Changelog entries of the source'),
    statuses: Type.Array(
      Type.Object(
        {
          from: Type.String({ description: 'The status name in the source' }),
          to: StringEnum([...FEATURE_STATUSES, 'skip'] as const),
          by: StringEnum(['default', 'map', 'fallback'] as const, {
            description: 'default table, your map, or unknown (made open)',
          }),
          ideas: Type.Integer({ minimum: 0 }),
        },
        { additionalProperties: false },
      ),
    ),
    skipped: Type.Array(
      Type.Object(
        {
          file: Type.String(),
          row: Type.Integer(),
          kind: Type.String(),
          id: Type.Union([Type.String(), Type.Null()]),
          reason: Type.String(),
        },
        { additionalProperties: false },
      ),
      { description: 'The first 200 items left out, with why' },
    ),
    skippedTotal: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
);
