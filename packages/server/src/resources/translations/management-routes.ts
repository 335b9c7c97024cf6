/**
 * Management of translations: the project's locales, keys (namespaces, categories) and their
 * text per locale. Files (import, export) and missing keys have their own route files. Every
 * write moves the version behind GET /translations' cache and ETag (see store.ts).
 */
import type { Queryable } from '../../db/database.ts';
import { clampLimit, errorResponses } from '../../http/common-schemas.ts';
import { NotFoundError } from '../../kernel/errors.ts';
import { canonicalLocale } from '../../http/locale.ts';
import type { ManagementApp, ManagementDeps } from '../../routing/management/context.ts';
import { ConflictError } from '../../kernel/errors.ts';
import { ProjectParams, requireSomeField } from '../../http/management-schemas.ts';
import { fileRoutes } from './file-management-routes.ts';
import { canonicalValues, requireLocale } from './locale.ts';
import { missingRoutes } from './missing-management-routes.ts';
import { changes } from '../audit/index.ts';
import { presentKey } from './presenter.ts';
import { translationProgress } from './service.ts';
import {
  CreateKeyBody,
  KEY_FIELDS,
  KeyPage,
  KeyParams,
  ListKeysQuery,
  Locales,
  PutValueBody,
  TranslationKey,
  TranslationSummary,
  UpdateKeyBody,
  UpdateLocalesBody,
  ValueParams,
} from './schemas.ts';
import { readProjectLocales, writeProjectLocales } from '../projects/index.ts';
import { deleteKey, deleteValue, getKey, insertKey, listKeys, putValue, translationWrite, updateKey } from './store.ts';

/** A key as the audit log keeps it: its texts, not its timestamps. */
const auditKey = (row: Parameters<typeof presentKey>[0]) => {
  const { createdAt: _created, updatedAt: _updated, ...key } = presentKey(row);
  return key;
};

const tags = ['translations'];

export async function translationManagementRoutes(app: ManagementApp, deps: ManagementDeps): Promise<void> {
  const { db } = deps;
  const keyOrThrow = async (projectId: string, key: string) => {
    const row = await getKey(db, projectId, key);
    if (!row) throw new NotFoundError();
    return presentKey(row);
  };
  /**
   * Runs a write of one key and reads the key back in the same transaction, so a DELETE racing
   * the write cannot leave the answer a half-deleted key or nothing (it is a 404, or comes after).
   * `write` says whether the key is there (undefined: it is not) and whether it changed.
   */
  const writeKey = async (
    projectId: string,
    key: string,
    action: string,
    write: (tx: Queryable) => Promise<boolean | undefined>,
  ) => {
    const outcome = await translationWrite(
      db,
      projectId,
      async (tx) => {
        const was = await getKey(tx, projectId, key);
        const changed = await write(tx);
        if (changed === undefined) return undefined;
        const row = await getKey(tx, projectId, key);
        return row && { changed, row, was };
      },
      (result) => result?.changed === true,
      (result) => ({
        action,
        target: { type: 'translation_key', id: key },
        ...changes(result?.was ? auditKey(result.was) : {}, result ? auditKey(result.row) : {}),
      }),
    );
    if (!outcome) throw new NotFoundError();
    return presentKey(outcome.row);
  };

  app.get(
    '/projects/:projectId/translations/locales',
    {
      config: { access: { project: 'member' } },
      schema: {
        operationId: 'manageGetLocales',
        summary: "The project's default and supported locales",
        tags,
        params: ProjectParams,
        response: { 200: Locales, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const locales = await readProjectLocales(db, request.params.projectId);
      if (!locales) throw new NotFoundError();
      return locales;
    },
  );

  app.patch(
    '/projects/:projectId/translations/locales',
    {
      config: { access: { project: 'admin' } },
      schema: {
        operationId: 'manageUpdateLocales',
        summary: 'Change the default and supported locales; the default falls back for every key',
        tags,
        params: ProjectParams,
        body: UpdateLocalesBody,
        response: { 200: Locales, ...errorResponses(400, 401, 403, 404, 413, 415) },
      },
    },
    async (request) => {
      const { projectId } = request.params;
      requireSomeField(request.body, ['defaultLocale', 'supportedLocales']);
      const defaultLocale =
        request.body.defaultLocale === undefined
          ? undefined
          : requireLocale(request.body.defaultLocale, 'defaultLocale');
      const supported = request.body.supportedLocales?.map((locale, index) =>
        requireLocale(locale, `supportedLocales.${index}`),
      );
      return translationWrite(
        db,
        projectId,
        async (tx) => {
          const current = await readProjectLocales(tx, projectId);
          if (!current) throw new NotFoundError();
          const next = {
            defaultLocale: defaultLocale ?? current.defaultLocale,
            supportedLocales: [...new Set(supported ?? current.supportedLocales)],
          };
          if (!next.supportedLocales.includes(next.defaultLocale)) next.supportedLocales.unshift(next.defaultLocale);
          await writeProjectLocales(tx, projectId, next);
          return { next, current };
        },
        () => true,
        ({ next, current }) => ({
          action: 'translations.locales_updated',
          target: { type: 'project', id: projectId },
          ...changes({ ...current }, { ...next }),
        }),
      ).then(({ next }) => next);
    },
  );

  app.get(
    '/projects/:projectId/translations/summary',
    {
      config: { access: { project: 'member' } },
      schema: {
        operationId: 'manageTranslationSummary',
        summary: 'Progress per locale (keys with a text / all keys) and the namespaces and categories in use',
        tags,
        params: ProjectParams,
        response: { 200: TranslationSummary, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const { projectId } = request.params;
      const progress = await translationProgress(db, projectId);
      if (!progress) throw new NotFoundError();
      return progress;
    },
  );

  app.get(
    '/projects/:projectId/translations/keys',
    {
      config: { access: { project: 'member' } },
      schema: {
        operationId: 'manageListTranslationKeys',
        summary:
          'Translation keys with their text per locale, by key; filter by namespace, category, text or a missing locale',
        tags,
        params: ProjectParams,
        querystring: ListKeysQuery,
        response: { 200: KeyPage, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { projectId } = request.params;
      const limit = clampLimit(request.query.limit, 100, 500);
      const offset = request.query.offset ?? 0;
      const missingLocale =
        request.query.missingLocale === undefined
          ? undefined
          : requireLocale(request.query.missingLocale, 'missingLocale');
      const { rows, total } = await listKeys(db, projectId, { ...request.query, missingLocale, limit, offset });
      return { keys: rows.map(presentKey), total, limit, offset };
    },
  );

  app.post(
    '/projects/:projectId/translations/keys',
    {
      config: { access: { project: 'admin' } },
      schema: {
        operationId: 'manageCreateTranslationKey',
        summary: 'Create a key with its default text and, optionally, texts per locale; 409 when it exists',
        tags,
        params: ProjectParams,
        body: CreateKeyBody,
        response: { 201: TranslationKey, ...errorResponses(400, 401, 403, 404, 409, 413, 415) },
      },
    },
    async (request, reply) => {
      const { projectId } = request.params;
      const body = request.body;
      const values = canonicalValues(body.translations, 'translations');
      const created = await translationWrite(
        db,
        projectId,
        async (tx) =>
          (await insertKey(tx, projectId, { ...body, values })) ? getKey(tx, projectId, body.key) : undefined,
        (row) => row !== undefined,
        (row) => ({
          action: 'translation_key.created',
          target: { type: 'translation_key', id: body.key },
          after: row && auditKey(row),
        }),
      );
      if (!created) throw new ConflictError(`Translation key "${body.key}" already exists`);
      return reply.code(201).send(presentKey(created));
    },
  );

  app.get(
    '/projects/:projectId/translations/keys/:key',
    {
      config: { access: { project: 'member' } },
      schema: {
        operationId: 'manageGetTranslationKey',
        summary: 'One key with its text per locale',
        tags,
        params: KeyParams,
        response: { 200: TranslationKey, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      return keyOrThrow(request.params.projectId, request.params.key);
    },
  );

  app.patch(
    '/projects/:projectId/translations/keys/:key',
    {
      config: { access: { project: 'admin' } },
      schema: {
        operationId: 'manageUpdateTranslationKey',
        summary: 'Change the default text, namespace or category of a key',
        tags,
        params: KeyParams,
        body: UpdateKeyBody,
        response: { 200: TranslationKey, ...errorResponses(400, 401, 403, 404, 413, 415) },
      },
    },
    async (request) => {
      const { projectId, key } = request.params;
      requireSomeField(request.body, KEY_FIELDS);
      return writeKey(projectId, key, 'translation_key.updated', async (tx) =>
        (await updateKey(tx, projectId, key, request.body)) ? true : undefined,
      );
    },
  );

  app.delete(
    '/projects/:projectId/translations/keys/:key',
    {
      config: { access: { project: 'admin' } },
      schema: {
        operationId: 'manageDeleteTranslationKey',
        summary: 'Delete a key and all its texts',
        tags,
        params: KeyParams,
        response: { 204: { type: 'null', description: 'Deleted' }, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { projectId, key } = request.params;
      if (
        !(await translationWrite(
          db,
          projectId,
          async (tx) => {
            const was = await getKey(tx, projectId, key);
            return was && (await deleteKey(tx, projectId, key)) ? was : undefined;
          },
          (was) => was !== undefined,
          (was) => ({
            action: 'translation_key.deleted',
            target: { type: 'translation_key', id: key },
            before: was && auditKey(was),
            after: null,
          }),
        ))
      )
        throw new NotFoundError();
      return reply.code(204).send(null);
    },
  );

  app.put(
    '/projects/:projectId/translations/keys/:key/values/:locale',
    {
      config: { access: { project: 'admin' } },
      schema: {
        operationId: 'manageSetTranslation',
        summary: "Set a key's text in one locale",
        tags,
        params: ValueParams,
        body: PutValueBody,
        response: { 200: TranslationKey, ...errorResponses(400, 401, 403, 404, 413, 415) },
      },
    },
    async (request) => {
      const { projectId, key } = request.params;
      const locale = requireLocale(request.params.locale, 'locale');
      return writeKey(projectId, key, 'translation.set', (tx) =>
        putValue(tx, projectId, key, locale, request.body.text),
      );
    },
  );

  app.delete(
    '/projects/:projectId/translations/keys/:key/values/:locale',
    {
      config: { access: { project: 'admin' } },
      schema: {
        operationId: 'manageDeleteTranslation',
        summary: "Remove a key's text in one locale; the key falls back as usual",
        tags,
        params: ValueParams,
        response: { 200: TranslationKey, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { projectId, key } = request.params;
      // A text in a locale that is no BCP 47 tag cannot exist: the 404 of a missing one.
      const locale = canonicalLocale(request.params.locale);
      if (!locale) throw new NotFoundError();
      return writeKey(projectId, key, 'translation.deleted', (tx) => deleteValue(tx, projectId, key, locale));
    },
  );

  await fileRoutes(app, deps);
  await missingRoutes(app, deps);
}
