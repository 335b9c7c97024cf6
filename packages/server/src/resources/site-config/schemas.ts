import { Type } from 'typebox';
import { StringEnum, Timestamp } from '../../http/common-schemas.ts';
import { MAINTENANCE_TYPES, MESSAGE_TYPES } from './public-schemas.ts';
import { NullableString, ProjectParams } from '../../http/management-schemas.ts';

export const MessageParams = Type.Object({
  ...ProjectParams.properties,
  messageId: Type.String({ minLength: 1, maxLength: 100 }),
});
export const FLAG_KEY = '^[A-Za-z0-9._:-]{1,100}$';
export const FlagParams = Type.Object({ ...ProjectParams.properties, flagKey: Type.String({ pattern: FLAG_KEY }) });
export const EnvironmentParams = Type.Object({
  ...ProjectParams.properties,
  environmentId: Type.String({ minLength: 1, maxLength: 100, description: 'The environment id or its slug' }),
});

const NullableTimestamp = Type.Union([Timestamp, Type.Null()]);
const Whitelist = Type.Object(
  {
    localStorageKeys: Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 500 }),
    emails: Type.Array(Type.String({ format: 'email', maxLength: 320 }), { maxItems: 500 }),
    ips: Type.Array(
      Type.String({ minLength: 2, maxLength: 50, description: 'IPv4 or IPv6 address, optionally with a /prefix' }),
      { maxItems: 500 },
    ),
  },
  { additionalProperties: false },
);

export const Maintenance = Type.Object(
  {
    enabled: Type.Boolean(),
    type: StringEnum(MAINTENANCE_TYPES, {
      description: 'full: the app is blocked; banner: a notice shows; custom: blocked, customHtml shown',
    }),
    customHtml: NullableString(),
    expectedRestoration: NullableTimestamp,
    showStatusLink: Type.Boolean(),
    statusPageUrl: NullableString(),
    whitelist: Whitelist,
  },
  { additionalProperties: false },
);

export const MaintenanceBody = Type.Object(
  {
    enabled: Type.Optional(Type.Boolean()),
    type: Type.Optional(StringEnum(MAINTENANCE_TYPES)),
    customHtml: Type.Optional(
      NullableString({ maxLength: 100_000, description: "Your own HTML, shown as is by the app in 'custom' mode" }),
    ),
    expectedRestoration: Type.Optional(NullableTimestamp),
    showStatusLink: Type.Optional(Type.Boolean()),
    statusPageUrl: Type.Optional(NullableString({ format: 'uri', maxLength: 2000, pattern: '^https?://' })),
    whitelist: Type.Optional(
      Type.Object(
        {
          localStorageKeys: Type.Optional(Whitelist.properties.localStorageKeys),
          emails: Type.Optional(Whitelist.properties.emails),
          ips: Type.Optional(Whitelist.properties.ips),
        },
        { description: 'Each list given replaces the stored one; lists left out are kept' },
      ),
    ),
  },
  { description: 'At least one field; fields left out keep their value.' },
);
export const MAINTENANCE_FIELDS = [
  'enabled',
  'type',
  'customHtml',
  'expectedRestoration',
  'showStatusLink',
  'statusPageUrl',
  'whitelist',
] as const;

export const Message = Type.Object(
  {
    id: Type.String(),
    projectId: Type.String(),
    type: StringEnum(MESSAGE_TYPES),
    text: Type.String(),
    isActive: Type.Boolean(),
    priority: Type.Integer(),
    startsAt: NullableTimestamp,
    expiresAt: NullableTimestamp,
    live: Type.Boolean({ description: 'Shown by GET /site-config right now (active and inside its schedule)' }),
    createdAt: Timestamp,
  },
  { additionalProperties: false },
);

const messageFields = {
  type: StringEnum(MESSAGE_TYPES),
  text: Type.String({ minLength: 1, maxLength: 2000 }),
  isActive: Type.Boolean(),
  priority: Type.Integer({ minimum: -1000, maximum: 1000, description: 'Higher first' }),
  startsAt: NullableTimestamp,
  expiresAt: NullableTimestamp,
};
export const CreateMessageBody = Type.Object({
  type: messageFields.type,
  text: messageFields.text,
  isActive: Type.Optional(messageFields.isActive),
  priority: Type.Optional(messageFields.priority),
  startsAt: Type.Optional(messageFields.startsAt),
  expiresAt: Type.Optional(messageFields.expiresAt),
});
export const UpdateMessageBody = Type.Object({
  type: Type.Optional(messageFields.type),
  text: Type.Optional(messageFields.text),
  isActive: Type.Optional(messageFields.isActive),
  priority: Type.Optional(messageFields.priority),
  startsAt: Type.Optional(messageFields.startsAt),
  expiresAt: Type.Optional(messageFields.expiresAt),
});
export const MESSAGE_FIELDS = ['type', 'text', 'isActive', 'priority', 'startsAt', 'expiresAt'] as const;

const FlagValueType = Type.Union(
  [Type.Literal('boolean'), Type.Literal('string'), Type.Literal('number'), Type.Literal('object')],
  { description: 'The type of the value the flag answers (OpenFeature); a boolean flag answers `enabled` by default' },
);
const FlagValueIn = Type.Union(
  [
    Type.Boolean(),
    Type.String({ maxLength: 10_000 }),
    Type.Number(),
    Type.Object({}, { additionalProperties: true, maxProperties: 100 }),
  ],
  { description: 'A value of the flag’s type' },
);
const FlagValueOut = Type.Unknown({ description: 'A value of the flag’s type' });
const ruleFields = {
  attribute: Type.String({
    minLength: 1,
    maxLength: 100,
    description: 'A context attribute, e.g. email or appVersion',
  }),
  operator: Type.Union([Type.Literal('equals'), Type.Literal('ends_with'), Type.Literal('semver_gte')]),
  value: Type.String({ minLength: 1, maxLength: 500 }),
};
const FlagRuleIn = Type.Object(
  { ...ruleFields, serve: Type.Optional(FlagValueIn) },
  {
    additionalProperties: false,
    description: 'Matched in order, first match wins; serves `serve` or the flag’s value',
  },
);
const FlagRuleOut = Type.Object({ ...ruleFields, serve: Type.Optional(FlagValueOut) }, { additionalProperties: false });
const EnvironmentValuesIn = Type.Object(
  { live: Type.Optional(FlagValueIn), test: Type.Optional(FlagValueIn) },
  { additionalProperties: false, description: 'The value for live keys and for test keys, overriding `value`' },
);
const RolloutPercentage = Type.Union([Type.Integer({ minimum: 0, maximum: 100 }), Type.Null()], {
  description: 'Share of targeting keys (sticky per targetingKey) that get the value; null: everyone',
});

export const Flag = Type.Object(
  {
    id: Type.String(),
    projectId: Type.String(),
    key: Type.String(),
    enabled: Type.Boolean(),
    type: FlagValueType,
    value: FlagValueOut,
    environmentValues: Type.Object(
      { live: Type.Optional(FlagValueOut), test: Type.Optional(FlagValueOut) },
      { additionalProperties: false },
    ),
    offValue: Type.Optional(FlagValueOut),
    rolloutPercentage: RolloutPercentage,
    rules: Type.Array(FlagRuleOut),
    createdAt: Timestamp,
  },
  { additionalProperties: false },
);
export const PutFlagBody = Type.Object(
  {
    enabled: Type.Boolean(),
    type: Type.Optional(FlagValueType),
    value: Type.Optional(FlagValueIn),
    environmentValues: Type.Optional(EnvironmentValuesIn),
    offValue: Type.Optional(Type.Union([FlagValueIn, Type.Null()], { description: 'null: none (the code default)' })),
    rolloutPercentage: Type.Optional(RolloutPercentage),
    rules: Type.Optional(Type.Array(FlagRuleIn, { maxItems: 10 })),
  },
  {
    description:
      'Fields left out keep their current setting (a new flag: a boolean, on for everyone, no rules). Values must be of the flag’s type.',
  },
);

export const HEX_COLOR = '^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$';
export const SLUG = '^[a-z0-9][a-z0-9-]{0,62}$';
export const Environment = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    slug: Type.String(),
    url: Type.String(),
    color: Type.String({ description: 'hex colour' }),
    debugEnabled: Type.Boolean(),
    position: Type.Integer(),
    createdAt: Timestamp,
  },
  { additionalProperties: false },
);
const environmentFields = {
  name: Type.String({ minLength: 1, maxLength: 100 }),
  slug: Type.String({ pattern: SLUG, description: 'lowercase letters, digits and hyphens' }),
  url: Type.Union([Type.String({ format: 'uri', pattern: '^https?://', maxLength: 2000 }), Type.Literal('')]),
  color: Type.String({ pattern: HEX_COLOR, description: '#rgb or #rrggbb' }),
  debugEnabled: Type.Boolean(),
  position: Type.Integer({ minimum: 0, maximum: 10_000, description: 'Order in lists, lowest first' }),
};
export const CreateEnvironmentBody = Type.Object({
  name: environmentFields.name,
  slug: environmentFields.slug,
  url: Type.Optional(environmentFields.url),
  color: Type.Optional(environmentFields.color),
  debugEnabled: Type.Optional(environmentFields.debugEnabled),
  position: Type.Optional(environmentFields.position),
});
export const UpdateEnvironmentBody = Type.Object({
  name: Type.Optional(environmentFields.name),
  slug: Type.Optional(environmentFields.slug),
  url: Type.Optional(environmentFields.url),
  color: Type.Optional(environmentFields.color),
  debugEnabled: Type.Optional(environmentFields.debugEnabled),
  position: Type.Optional(environmentFields.position),
});
export const ENVIRONMENT_FIELDS = ['name', 'slug', 'url', 'color', 'debugEnabled', 'position'] as const;

export const ManagedSiteConfig = Type.Object(
  {
    maintenance: Maintenance,
    messages: Type.Array(Message, { description: 'Every message, inactive and scheduled ones included' }),
    featureFlags: Type.Array(Flag),
    debugMode: Type.Boolean(),
    environments: Type.Array(Environment),
    lastUpdated: Timestamp,
  },
  { additionalProperties: false },
);

export const SettingsBody = Type.Object({ debugMode: Type.Boolean() });
