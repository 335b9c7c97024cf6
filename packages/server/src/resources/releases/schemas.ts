import { Type } from 'typebox';
import { StringEnum, Timestamp } from '../../http/common-schemas.ts';
import { NullableString, ProjectParams } from '../../http/management-schemas.ts';

const Version = Type.String({ minLength: 1, maxLength: 100, description: 'SemVer, e.g. 1.4.0 or 2.0.0-beta.1' });
const GitCommit = Type.String({ pattern: '^[0-9a-fA-F]{7,40}$', description: 'git commit hash (7 to 40 hex digits)' });

export const ReleaseParams = Type.Object({ ...ProjectParams.properties, version: Version });

export const Release = Type.Object(
  {
    id: Type.String(),
    projectId: Type.String(),
    version: Type.String(),
    title: Type.String(),
    releaseNotes: Type.String(),
    downloadUrl: Type.String(),
    releaseDate: Timestamp,
    isBeta: Type.Boolean(),
    gitCommit: NullableString(),
    required: Type.Boolean({ description: 'Clients below this version must update' }),
    createdAt: Timestamp,
  },
  { additionalProperties: false },
);

/** A version seen in live events or sessions that no release was created for (issue 33). */
export const SeenRelease = Type.Object(
  {
    version: Type.String(),
    source: Type.Union([Type.Literal('events'), Type.Literal('sessions')], {
      description: 'What reported it first: error events or sessions',
    }),
    firstSeenAt: Timestamp,
  },
  { additionalProperties: false },
);

const fields = {
  title: Type.String({ maxLength: 200 }),
  releaseNotes: Type.String({ maxLength: 50_000 }),
  downloadUrl: Type.Union([Type.String({ format: 'uri', pattern: '^https?://', maxLength: 2000 }), Type.Literal('')]),
  releaseDate: Timestamp,
  isBeta: Type.Boolean(),
  required: Type.Boolean(),
};

export const CreateReleaseBody = Type.Object({
  version: Version,
  title: Type.Optional(fields.title),
  releaseNotes: Type.Optional(fields.releaseNotes),
  downloadUrl: Type.Optional(fields.downloadUrl),
  releaseDate: Type.Optional(Type.String({ format: 'date-time', description: 'Default: now' })),
  isBeta: Type.Optional(
    Type.Boolean({ description: 'Default: true for a prerelease version (1.2.0-beta.1), else false' }),
  ),
  gitCommit: Type.Optional(NullableString({ pattern: '^[0-9a-fA-F]{7,40}$' })),
  required: Type.Optional(Type.Boolean({ description: 'Default false' })),
});

export const UpdateReleaseBody = Type.Object(
  {
    version: Type.Optional(Version),
    title: Type.Optional(fields.title),
    releaseNotes: Type.Optional(fields.releaseNotes),
    downloadUrl: Type.Optional(fields.downloadUrl),
    releaseDate: Type.Optional(fields.releaseDate),
    isBeta: Type.Optional(fields.isBeta),
    gitCommit: Type.Optional(Type.Union([GitCommit, Type.Null()])),
    required: Type.Optional(fields.required),
  },
  { description: 'At least one field.' },
);
export const RELEASE_FIELDS = [
  'version',
  'title',
  'releaseNotes',
  'downloadUrl',
  'releaseDate',
  'isBeta',
  'gitCommit',
  'required',
] as const;

/** The client's version a version check compares: SemVer or a release's git commit. */
export const CurrentVersion = Type.String({ maxLength: 100, description: 'SemVer or git commit hash' });
export const CheckQuery = Type.Object({ currentVersion: Type.Optional(CurrentVersion) });

/** The answer of the public GET /version-check. */
export const VersionInfo = Type.Object(
  {
    updateAvailable: Type.Boolean(),
    updateRequired: Type.Boolean(),
    updateRecommended: Type.Boolean(),
    updateType: StringEnum(['major', 'minor', 'patch', 'prerelease', 'none'] as const),
    latestVersion: Type.Union([
      Type.Object(
        {
          version: Type.String(),
          title: Type.String(),
          releaseNotes: Type.String(),
          downloadUrl: Type.String(),
          releaseDate: Timestamp,
          isBeta: Type.Boolean(),
        },
        { additionalProperties: false },
      ),
      Type.Null(),
    ]),
  },
  { additionalProperties: false },
);
