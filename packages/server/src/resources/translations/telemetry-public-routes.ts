import { Type } from 'typebox';
import { errorResponses } from '../../http/common-schemas.ts';
import { BadRequestError } from '../../kernel/errors.ts';
import { canonicalLocale } from '../../http/locale.ts';
import type { App, Deps } from '../../routing/public-api/context.ts';
import { scopeOf } from '../../routing/public-api/context.ts';
import { recordMissing } from './store-missing.ts';

const TelemetryBody = Type.Object({
  locale: Type.String({ minLength: 1, maxLength: 35 }),
  missingKeys: Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 100 }),
});

export async function i18nTelemetryRoutes(app: App, { db }: Deps): Promise<void> {
  app.post(
    '/i18n-telemetry',
    {
      config: { permission: 'public:read' },
      schema: {
        operationId: 'reportMissingTranslations',
        summary: 'Report translation keys missing at runtime (up to 100 per request)',
        tags: ['translations'],
        body: TelemetryBody,
        response: {
          200: Type.Object({ ok: Type.Literal(true) }, { additionalProperties: false }),
          ...errorResponses(400, 401, 403, 413, 415, 429),
        },
      },
    },
    async (request) => {
      const locale = canonicalLocale(request.body.locale);
      if (!locale) {
        throw new BadRequestError('Invalid field locale: must be a BCP 47 language tag', [
          { field: 'locale', message: 'must be a BCP 47 language tag' },
        ]);
      }
      await recordMissing(db, scopeOf(request), locale, request.body.missingKeys);
      return { ok: true as const };
    },
  );
}
