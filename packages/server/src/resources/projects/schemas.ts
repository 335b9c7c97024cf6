import { Type } from 'typebox';
import { StringEnum, Timestamp } from '../../http/common-schemas.ts';
import { ALL_KEY_SCOPES } from './store.ts';
import { RoleSchema } from '../teams/index.ts';

export const Locale = Type.String({
  pattern: '^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$',
  maxLength: 35,
  description: 'BCP 47, e.g. en, de-AT',
});
export const Slug = Type.String({
  pattern: '^[a-z0-9][a-z0-9-]{0,62}$',
  description: 'lower-case letters, digits and -',
});
const Quota = Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], {
  description: 'Requests a month on protected public endpoints; null: unlimited',
});
const Plan = Type.String({ minLength: 1, maxLength: 50 });

export const Project = Type.Object(
  {
    id: Type.String(),
    teamId: Type.String(),
    name: Type.String(),
    slug: Type.String(),
    defaultLocale: Type.String(),
    supportedLocales: Type.Array(Type.String()),
    plan: Type.String(),
    monthlyQuota: Type.Union([Type.Integer(), Type.Null()]),
    role: RoleSchema,
    createdAt: Timestamp,
  },
  { additionalProperties: false },
);

export const CreateProjectBody = Type.Object({
  teamId: Type.Optional(Type.String({ description: 'Default: the team the caller owns' })),
  name: Type.String({ minLength: 1, maxLength: 100 }),
  slug: Type.Optional(Slug),
  defaultLocale: Type.Optional(Locale),
  supportedLocales: Type.Optional(Type.Array(Locale, { minItems: 1, maxItems: 100, uniqueItems: true })),
  plan: Type.Optional(Plan),
  monthlyQuota: Type.Optional(Quota),
});

export const UpdateProjectBody = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  slug: Type.Optional(Slug),
  defaultLocale: Type.Optional(Locale),
  supportedLocales: Type.Optional(Type.Array(Locale, { minItems: 1, maxItems: 100, uniqueItems: true })),
  plan: Type.Optional(Plan),
  monthlyQuota: Type.Optional(Quota),
});

export const ProjectIdParams = Type.Object({ projectId: Type.String() });
export const KeyParams = Type.Object({ projectId: Type.String(), keyId: Type.String() });

export const ProjectList = Type.Object({ projects: Type.Array(Project) }, { additionalProperties: false });

/** Scopes a key may hold: the public API's permissions and the hosted MCP server's translation scopes. */
export const KEY_SCOPES = ALL_KEY_SCOPES;

export const ApiKeySummary = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    environment: StringEnum(['live', 'test'] as const),
    prefix: Type.String({
      description: 'svc_live_ or svc_test_ and the public part of the key; the rest is never shown again',
    }),
    scopes: Type.Array(Type.String()),
    publishable: Type.Boolean({
      description:
        'Made to be embedded in a web page or app: it may not change existing items (PATCH /features/{id} is 403).',
    }),
    createdAt: Timestamp,
    revokedAt: Type.Union([Timestamp, Type.Null()]),
    sentryDsn: Type.String({
      description:
        'The DSN for Sentry SDKs, `<scheme>://<key>@<host>/<project ingest number>`: put the whole key in place of `<key>` (it is shown whole only when created).',
    }),
  },
  { additionalProperties: false },
);

export const CreateKeyBody = Type.Object({
  name: Type.Optional(Type.String({ maxLength: 100 })),
  environment: StringEnum(['live', 'test'] as const),
  scopes: Type.Array(StringEnum(KEY_SCOPES), { minItems: 1, maxItems: KEY_SCOPES.length, uniqueItems: true }),
  publishable: Type.Optional(
    Type.Boolean({
      default: false,
      description:
        'true for a key to embed in a web page or app (widget, browser SDKs): it may submit, vote and comment but not change existing items. Default false: a secret key.',
    }),
  ),
});

export const CreatedKey = Type.Object(
  {
    key: Type.String({ description: 'The whole key. Shown only in this response.' }),
    sentryDsn: Type.String({
      description:
        'A ready DSN for Sentry SDKs with the whole key (`Sentry.init({ dsn })`). Shown only in this response.',
    }),
    apiKey: ApiKeySummary,
  },
  { additionalProperties: false },
);
