/** Translation files: import and export one locale (optionally one namespace) as JSON. */
import { errorResponses } from '../../http/common-schemas.ts';
import { BadRequestError, NotFoundError } from '../../kernel/errors.ts';
import type { ManagementApp, ManagementDeps } from '../../routing/management/context.ts';
import { ConflictError } from '../../kernel/errors.ts';
import { ProjectParams } from '../../http/management-schemas.ts';
import { exportLocale, flattenFile, nestEntries } from './files.ts';
import { importLocale } from './store-files.ts';
import { requireLocale } from './locale.ts';
import { ExportQuery, ImportQuery, ImportResult, TranslationFile } from './schemas.ts';
import { readProjectLocales } from '../projects/index.ts';

const tags = ['translations'];

export async function fileRoutes(app: ManagementApp, { db }: ManagementDeps): Promise<void> {
  app.get(
    '/projects/:projectId/translations/export',
    {
      config: { access: { project: 'member' } },
      schema: {
        operationId: 'manageExportTranslations',
        summary: 'One locale (and optionally one namespace) as a JSON translation file, flat or nested',
        tags,
        params: ProjectParams,
        querystring: ExportQuery,
        response: { 200: TranslationFile, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const { projectId } = request.params;
      const locales = await readProjectLocales(db, projectId);
      if (!locales) throw new NotFoundError();
      const locale = requireLocale(request.query.locale, 'locale');
      const { namespace } = request.query;
      const flat = await exportLocale(
        db,
        projectId,
        locales.defaultLocale,
        locale,
        namespace,
        request.query.fallback ?? false,
      );
      let body: Record<string, unknown> = flat;
      if (request.query.format === 'nested') {
        const nested = nestEntries(flat);
        if ('conflict' in nested) {
          throw new ConflictError(`Key "${nested.conflict}" is both a text and a group of other keys; export it flat`);
        }
        body = nested.nested;
      }
      // Namespaces are free text; the file name keeps only characters safe in a header.
      const file = `${namespace ? `${namespace.replace(/[^A-Za-z0-9._-]/g, '_')}.` : ''}${locale}.json`;
      reply.header('content-disposition', `attachment; filename="${file}"`);
      return { ...body };
    },
  );

  app.post(
    '/projects/:projectId/translations/import',
    {
      config: { access: { project: 'admin' } },
      schema: {
        operationId: 'manageImportTranslations',
        summary: 'Import a JSON translation file for one locale',
        description:
          'Flat ({"a.b": "text"}) or nested ({"a": {"b": "text"}}) objects. The file fills its own locale\'s values only. Keys that ' +
          "do not exist yet are created; when the file is the project's default locale, its text also becomes the default text of " +
          "new keys and of keys that have none. Another locale's file gives new keys no default text: until the default locale " +
          'has a text for them, GET /translations leaves them out of every locale without its own value (never serving, say, ' +
          'German to English readers). Existing texts are replaced unless overwrite=false.',
        tags,
        params: ProjectParams,
        querystring: ImportQuery,
        body: TranslationFile,
        response: { 200: ImportResult, ...errorResponses(400, 401, 403, 404, 413, 415) },
      },
    },
    async (request) => {
      const { projectId } = request.params;
      const locales = await readProjectLocales(db, projectId);
      if (!locales) throw new NotFoundError();
      const locale = requireLocale(request.query.locale, 'locale');
      const { entries, problems } = flattenFile(request.body);
      if (problems.length > 0)
        throw new BadRequestError(
          `Invalid translation file: ${problems[0]!.field} ${problems[0]!.message}`,
          problems.slice(0, 100),
        );
      const namespace = request.query.namespace;
      const outcome = await importLocale(
        db,
        projectId,
        locale,
        locales.defaultLocale,
        namespace,
        entries,
        request.query.overwrite ?? true,
      );
      return {
        locale,
        namespace: namespace ?? null,
        ...outcome,
        unsupportedLocale: !locales.supportedLocales.includes(locale),
      };
    },
  );
}
