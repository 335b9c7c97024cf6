import { Type } from 'typebox';
import { Paging, StringEnum, Timestamp } from '../../http/common-schemas.ts';
import { KeyEnvironmentSchema, NullableString, pageFields, ProjectParams } from '../../http/management-schemas.ts';

const KEY = '^[A-Za-z0-9._-]{1,200}$';
const Locale = Type.String({ minLength: 1, maxLength: 35, description: 'BCP 47 tag, e.g. de or de-AT' });
const Namespace = Type.String({ minLength: 1, maxLength: 100 });
const Category = Type.String({ minLength: 1, maxLength: 100 });
const Text = Type.String({ maxLength: 5000 });

export const KeyParams = Type.Object({
  ...ProjectParams.properties,
  key: Type.String({ pattern: KEY, description: 'letters, digits, dots, underscores, hyphens' }),
});
export const ValueParams = Type.Object({ ...KeyParams.properties, locale: Locale });

export const Locales = Type.Object(
  { defaultLocale: Type.String(), supportedLocales: Type.Array(Type.String()) },
  { additionalProperties: false },
);
export const UpdateLocalesBody = Type.Object(
  {
    defaultLocale: Type.Optional(Locale),
    supportedLocales: Type.Optional(Type.Array(Locale, { minItems: 1, maxItems: 200 })),
  },
  {
    description: 'At least one field. The default locale is always one of the supported locales (added when missing).',
  },
);

export const TranslationKey = Type.Object(
  {
    key: Type.String(),
    defaultText: Type.String(),
    namespace: NullableString(),
    category: NullableString(),
    translations: Type.Record(Type.String(), Type.String(), { description: 'locale → text' }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { additionalProperties: false },
);

export const ListKeysQuery = Type.Object({
  namespace: Type.Optional(Namespace),
  category: Type.Optional(Category),
  q: Type.Optional(
    Type.String({ minLength: 1, maxLength: 200, description: 'Text searched in keys and default texts' }),
  ),
  missingLocale: Type.Optional(
    Type.String({ minLength: 1, maxLength: 35, description: 'Only keys with no text in this locale' }),
  ),
  ...Paging(100),
});
export const KeyPage = Type.Object(
  { keys: Type.Array(TranslationKey), ...pageFields },
  { additionalProperties: false },
);

export const CreateKeyBody = Type.Object({
  key: Type.String({ pattern: KEY }),
  defaultText: Text,
  namespace: Type.Optional(NullableString({ minLength: 1, maxLength: 100 })),
  category: Type.Optional(NullableString({ minLength: 1, maxLength: 100 })),
  translations: Type.Optional(Type.Record(Type.String(), Text, { description: 'locale → text' })),
});
export const UpdateKeyBody = Type.Object(
  {
    defaultText: Type.Optional(Text),
    namespace: Type.Optional(NullableString({ minLength: 1, maxLength: 100 })),
    category: Type.Optional(NullableString({ minLength: 1, maxLength: 100 })),
  },
  { description: 'At least one field; null clears namespace or category.' },
);
export const KEY_FIELDS = ['defaultText', 'namespace', 'category'] as const;
export const PutValueBody = Type.Object({ text: Text });

export const ExportQuery = Type.Object({
  locale: Locale,
  namespace: Type.Optional(Namespace),
  format: Type.Optional(
    StringEnum(['flat', 'nested'] as const, {
      default: 'flat',
      description: 'flat: {"a.b": "text"}; nested: {"a": {"b": "text"}}',
    }),
  ),
  fallback: Type.Optional(
    Type.Boolean({
      default: false,
      description: 'true: every key, resolved like GET /translations; false: only texts stored for this locale',
    }),
  ),
});
export const TranslationFile = Type.Record(Type.String(), Type.Unknown(), {
  description: 'A translation file: key → text, flat or nested (nested objects mean dotted keys)',
});

export const ImportQuery = Type.Object({
  locale: Locale,
  namespace: Type.Optional(
    Type.String({ minLength: 1, maxLength: 100, description: 'Namespace of keys the import creates' }),
  ),
  overwrite: Type.Optional(
    Type.Boolean({ default: true, description: 'false: texts already stored for this locale are kept' }),
  ),
});
export const ImportResult = Type.Object(
  {
    locale: Type.String(),
    namespace: NullableString(),
    created: Type.Array(Type.String()),
    updated: Type.Array(Type.String()),
    unchanged: Type.Array(Type.String()),
    unsupportedLocale: Type.Boolean({
      description: "The locale is not among the project's supported locales (texts are stored anyway)",
    }),
  },
  { additionalProperties: false },
);

export const MissingQuery = Type.Object({
  environment: Type.Optional(KeyEnvironmentSchema),
  locale: Type.Optional(Type.String({ minLength: 1, maxLength: 35 })),
  includeResolved: Type.Optional(
    Type.Boolean({ default: false, description: 'Also list keys that have a text in that locale by now' }),
  ),
  ...Paging(100),
});
export const MissingPage = Type.Object(
  {
    missing: Type.Array(
      Type.Object(
        {
          key: Type.String(),
          locale: Type.String(),
          occurrences: Type.Integer({ description: 'Times the SDK reported it' }),
          firstSeenAt: Timestamp,
          lastSeenAt: Timestamp,
          keyExists: Type.Boolean(),
          translated: Type.Boolean({ description: 'The key exists and has a text in this locale' }),
        },
        { additionalProperties: false },
      ),
    ),
    ...pageFields,
  },
  { additionalProperties: false },
);
export const AddMissingBody = Type.Object({
  environment: Type.Optional(KeyEnvironmentSchema),
  keys: Type.Optional(
    Type.Array(Type.String({ minLength: 1, maxLength: 200 }), {
      minItems: 1,
      maxItems: 1000,
      description: 'Omitted: every reported key that is not a key yet',
    }),
  ),
  namespace: Type.Optional(Namespace),
  category: Type.Optional(Category),
});
export const AddMissingResult = Type.Object(
  { created: Type.Array(Type.String()), existing: Type.Array(Type.String()), invalid: Type.Array(Type.String()) },
  { additionalProperties: false },
);

export const TranslationSummary = Type.Object(
  {
    totalKeys: Type.Integer(),
    locales: Type.Array(
      Type.Object(
        {
          locale: Type.String(),
          translated: Type.Integer({ description: 'Keys with a text stored in this locale' }),
          supported: Type.Boolean({ description: "One of the project's supported locales" }),
        },
        { additionalProperties: false },
      ),
      {
        description:
          'The supported locales (default first), then any other locale that has texts; progress is translated / totalKeys',
      },
    ),
    namespaces: Type.Array(Type.String(), { description: 'Namespaces the keys use, sorted' }),
    categories: Type.Array(Type.String(), { description: 'Categories the keys use, sorted' }),
  },
  { additionalProperties: false },
);
