import { Type } from 'typebox';
import { StringEnum, Timestamp } from '../../http/common-schemas.ts';
import { NullableString, ProjectParams } from '../../http/management-schemas.ts';
import { MAX_FILES_PER_UPLOAD } from './content.ts';

/** As Sentry: no whitespace, slashes or backslashes, not `.` or `..`, at most 200 characters. */
export const ReleaseName = Type.String({
  minLength: 1,
  maxLength: 200,
  pattern: '^(?!\\.{1,2}$)[^\\s/\\\\]+$',
  description: "The SDK's `release`, e.g. web@2.0.0 (no whitespace or slashes)",
});
const Dist = Type.String({ minLength: 1, maxLength: 64, pattern: '^[^\\s/\\\\]+$' });
const ArtifactName = Type.String({
  minLength: 1,
  maxLength: 1000,
  description: 'The file URL as frames name it: ~/assets/app.js.map, https://shop.example/app.js, app:///main.js',
});
const DebugId = Type.String({ minLength: 32, maxLength: 64, description: 'A UUID, as bundler plugins inject it' });
const Kind = StringEnum(['source_map', 'minified_source'] as const);

export const ArtifactParams = Type.Object({ ...ProjectParams.properties, artifactId: Type.String({ maxLength: 100 }) });

export const Artifact = Type.Object(
  {
    id: Type.String(),
    release: NullableString(),
    dist: NullableString(),
    name: Type.String(),
    kind: Kind,
    debugId: NullableString(),
    sourceMappingUrl: NullableString({ description: "A minified file's sourceMappingURL comment" }),
    size: Type.Integer({ description: 'Bytes, uncompressed' }),
    checksum: Type.String({ description: 'SHA-256 of the content' }),
    createdAt: Timestamp,
  },
  { additionalProperties: false },
);

export const UploadBody = Type.Object({
  release: Type.Optional(ReleaseName),
  dist: Type.Optional(Dist),
  files: Type.Array(
    Type.Object({
      name: ArtifactName,
      content: Type.String({ description: 'The file as text (UTF-8)' }),
      kind: Type.Optional(Kind),
      debugId: Type.Optional(DebugId),
    }),
    { minItems: 1, maxItems: MAX_FILES_PER_UPLOAD },
  ),
});

export const ListQuery = Type.Object({
  release: Type.Optional(ReleaseName),
  dist: Type.Optional(Dist),
  debugId: Type.Optional(DebugId),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 200 })),
});

export const DeleteReleaseQuery = Type.Object({ release: ReleaseName, dist: Type.Optional(Dist) });

const Context = Type.Array(Type.String());
const FrameFields = {
  filename: Type.Optional(Type.String({ maxLength: 2000 })),
  abs_path: Type.Optional(Type.String({ maxLength: 2000 })),
  function: Type.Optional(Type.String({ maxLength: 1000 })),
  module: Type.Optional(Type.String({ maxLength: 1000 })),
  lineno: Type.Optional(Type.Integer({ minimum: 1 })),
  colno: Type.Optional(Type.Integer({ minimum: 1 })),
  in_app: Type.Optional(Type.Boolean()),
  debug_id: Type.Optional(Type.String({ maxLength: 64 })),
};
const InFrame = Type.Object({
  ...FrameFields,
  pre_context: Type.Optional(Type.Array(Type.String({ maxLength: 10_000 }), { maxItems: 50 })),
  context_line: Type.Optional(Type.String({ maxLength: 10_000 })),
  post_context: Type.Optional(Type.Array(Type.String({ maxLength: 10_000 }), { maxItems: 50 })),
});
export const OutFrame = Type.Object(
  {
    ...FrameFields,
    pre_context: Type.Optional(Context),
    context_line: Type.Optional(Type.String()),
    post_context: Type.Optional(Context),
    mapped: Type.Boolean(),
    source_map: Type.Optional(Type.String({ description: 'The source map artifact used' })),
    minified: Type.Optional(
      Type.Object(
        {
          filename: Type.Optional(Type.String()),
          abs_path: Type.Optional(Type.String()),
          function: Type.Optional(Type.String()),
          lineno: Type.Optional(Type.Integer()),
          colno: Type.Optional(Type.Integer()),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

export const ResolveBody = Type.Object({
  release: Type.Optional(Type.String({ maxLength: 200 })),
  dist: Type.Optional(Type.String({ maxLength: 64 })),
  debug_meta: Type.Optional(
    Type.Object({
      images: Type.Array(
        Type.Object({
          type: Type.String({ maxLength: 50 }),
          code_file: Type.Optional(Type.String({ maxLength: 2000 })),
          debug_id: Type.Optional(Type.String({ maxLength: 64 })),
        }),
        { maxItems: 500 },
      ),
    }),
  ),
  frames: Type.Array(InFrame, {
    maxItems: 500,
    description: "Sentry's frames (exception.values[].stacktrace.frames), oldest call first",
  }),
});
