import { Type } from 'typebox';
import { StringEnum, Timestamp } from '../../http/common-schemas.ts';

export const MAINTENANCE_TYPES = ['full', 'banner', 'custom'] as const;
export const MESSAGE_TYPES = ['info', 'success', 'warning', 'error'] as const;

const NullableString = Type.Union([Type.String(), Type.Null()]);

export const SiteConfig = Type.Object(
  {
    maintenance: Type.Object(
      {
        enabled: Type.Boolean(),
        type: StringEnum(MAINTENANCE_TYPES),
        customHtml: NullableString,
        expectedRestoration: Type.Union([Timestamp, Type.Null()]),
        showStatusLink: Type.Boolean(),
        statusPageUrl: NullableString,
        whitelist: Type.Object(
          {
            localStorageKeys: Type.Array(Type.String()),
            emails: Type.Array(Type.String()),
            ips: Type.Array(Type.String()),
          },
          { additionalProperties: false },
        ),
      },
      { additionalProperties: false },
    ),
    messages: Type.Array(
      Type.Object(
        {
          id: Type.String(),
          projectId: Type.String(),
          type: StringEnum(MESSAGE_TYPES),
          text: Type.String(),
          isActive: Type.Boolean(),
          priority: Type.Integer(),
          startsAt: Type.Union([Timestamp, Type.Null()]),
          expiresAt: Type.Union([Timestamp, Type.Null()]),
        },
        { additionalProperties: false },
      ),
    ),
    featureFlags: Type.Array(
      Type.Object(
        { id: Type.String(), projectId: Type.String(), key: Type.String(), enabled: Type.Boolean() },
        { additionalProperties: false },
      ),
    ),
    debugMode: Type.Boolean(),
    environments: Type.Array(
      Type.Object(
        {
          id: Type.String(),
          name: Type.String(),
          slug: Type.String(),
          url: Type.String(),
          color: Type.String({ description: 'hex colour' }),
          debugEnabled: Type.Boolean(),
        },
        { additionalProperties: false },
      ),
    ),
    lastUpdated: Timestamp,
  },
  { additionalProperties: false },
);
