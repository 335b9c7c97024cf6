/** Keys the i18n SDK reported missing, with counts, and adding them as keys in one call. */
import { isTrue } from '../../db/database.ts';
import { clampLimit, errorResponses } from '../../http/common-schemas.ts';
import type { ManagementApp, ManagementDeps } from '../../routing/management/context.ts';
import { ProjectParams } from '../../http/management-schemas.ts';
import { requireLocale } from './locale.ts';
import { addMissingKeys, listMissing } from './store-missing.ts';
import { AddMissingBody, AddMissingResult, MissingPage, MissingQuery } from './schemas.ts';

const tags = ['translations'];

export async function missingRoutes(app: ManagementApp, { db }: ManagementDeps): Promise<void> {
  app.get(
    '/projects/:projectId/translations/missing',
    {
      config: { access: { project: 'member' } },
      schema: {
        operationId: 'manageListMissingTranslations',
        summary: 'Keys reported missing at runtime (POST /i18n-telemetry) per locale, most reported first',
        tags,
        params: ProjectParams,
        querystring: MissingQuery,
        response: { 200: MissingPage, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { projectId } = request.params;
      const limit = clampLimit(request.query.limit, 100, 500);
      const offset = request.query.offset ?? 0;
      const locale = request.query.locale === undefined ? undefined : requireLocale(request.query.locale, 'locale');
      const { rows, total } = await listMissing(db, projectId, {
        environment: request.query.environment ?? 'live',
        locale,
        includeResolved: request.query.includeResolved ?? false,
        limit,
        offset,
      });
      return {
        missing: rows.map((row) => ({
          key: row.key,
          locale: row.locale,
          occurrences: Number(row.occurrences),
          firstSeenAt: row.first_seen_at,
          lastSeenAt: row.last_seen_at,
          keyExists: isTrue(row.key_exists),
          translated: isTrue(row.translated),
        })),
        total,
        limit,
        offset,
      };
    },
  );

  app.post(
    '/projects/:projectId/translations/missing/keys',
    {
      config: { access: { project: 'admin' } },
      schema: {
        operationId: 'manageAddMissingTranslationKeys',
        summary:
          'Create translation keys for reported missing keys in one call: the given ones, or every reported key that is not a key yet. ' +
          'Each new key gets its name as placeholder default text',
        tags,
        params: ProjectParams,
        body: AddMissingBody,
        response: { 200: AddMissingResult, ...errorResponses(400, 401, 403, 404, 413, 415) },
      },
    },
    async (request) => {
      const { projectId } = request.params;
      return addMissingKeys(db, projectId, { ...request.body, environment: request.body.environment ?? 'live' });
    },
  );
}
