import { Type, type Static } from 'typebox';
import { StringEnum } from '../../http/common-schemas.ts';

export const SEVERITIES = ['low', 'medium', 'high', 'critical'] as const;
export const BREADCRUMB_TYPES = ['navigation', 'click', 'input', 'http', 'console', 'custom'] as const;
export const APP_ENVIRONMENTS = ['development', 'staging', 'production'] as const;

const Metadata = Type.Record(Type.String(), Type.Unknown());

export const BugBody = Type.Object({
  title: Type.String({ minLength: 5, maxLength: 200 }),
  message: Type.String({ minLength: 10, maxLength: 5000 }),
  stackTrace: Type.Optional(Type.String({ maxLength: 50_000 })),
  bugType: Type.Optional(Type.String({ maxLength: 100 })),
  severity: Type.Optional(StringEnum(SEVERITIES, { default: 'medium' })),
  createFeature: Type.Optional(Type.Boolean()),
  internal: Type.Optional(Type.Boolean()),
  channel: Type.Optional(StringEnum(['widget', 'sdk'] as const)),
  metadata: Type.Optional(Metadata),
});

const Breadcrumb = Type.Object({
  timestamp: Type.String({ format: 'date-time' }),
  type: StringEnum(BREADCRUMB_TYPES),
  message: Type.String({ maxLength: 2000 }),
  category: Type.Optional(Type.String({ maxLength: 200 })),
  level: Type.Optional(Type.String({ maxLength: 50 })),
  data: Type.Optional(Metadata),
});

const Short = Type.String({ maxLength: 500 });

export const ErrorBody = Type.Object({
  title: Type.String({ minLength: 5, maxLength: 200 }),
  message: Type.String({ minLength: 10, maxLength: 5000 }),
  stackTrace: Type.Optional(Type.String({ maxLength: 50_000 })),
  errorType: Type.Optional(Type.String({ maxLength: 200 })),
  severity: Type.Optional(StringEnum(SEVERITIES, { default: 'medium' })),
  breadcrumbs: Type.Optional(Type.Array(Breadcrumb, { maxItems: 50 })),
  device: Type.Optional(
    Type.Object({
      userAgent: Type.Optional(Type.String({ maxLength: 1000 })),
      browser: Type.Optional(Short),
      browserVersion: Type.Optional(Short),
      os: Type.Optional(Short),
      osVersion: Type.Optional(Short),
      device: Type.Optional(Short),
      screenResolution: Type.Optional(Short),
      language: Type.Optional(Short),
      timezone: Type.Optional(Short),
    }),
  ),
  network: Type.Optional(
    Type.Object({
      effectiveType: Type.Optional(Short),
      downlink: Type.Optional(Type.Number({ minimum: 0 })),
      rtt: Type.Optional(Type.Number({ minimum: 0 })),
      online: Type.Optional(Type.Boolean()),
    }),
  ),
  app: Type.Optional(
    Type.Object({
      version: Type.Optional(Short),
      environment: Type.Optional(StringEnum(APP_ENVIRONMENTS)),
      releaseId: Type.Optional(Short),
      sessionId: Type.Optional(Short),
      userId: Type.Optional(Short),
      userEmail: Type.Optional(Short),
    }),
  ),
  url: Type.Optional(Type.String({ maxLength: 4000 })),
  referrer: Type.Optional(Type.String({ maxLength: 4000 })),
  timestamp: Type.Optional(Type.String({ format: 'date-time' })),
  metadata: Type.Optional(Metadata),
  flags: Type.Optional(
    Type.Array(
      Type.Object({
        flag: Type.String({ minLength: 1, maxLength: 200 }),
        result: Type.Union([Type.Boolean(), Type.String({ maxLength: 1000 }), Type.Number(), Type.Null()]),
      }),
      {
        maxItems: 100,
        description:
          "Feature flags evaluated before the error, newest last (as Sentry's contexts.flags.values): shown on the event and its group",
      },
    ),
  ),
});

export type ErrorReportBody = Static<typeof ErrorBody>;
