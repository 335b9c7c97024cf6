import { createHash } from 'node:crypto';
import { Type } from 'typebox';
import { errorResponses } from '../../http/common-schemas.ts';
import { BadRequestError } from '../../kernel/errors.ts';
import { etagOf, ifNoneMatchHits } from '../../http/etag.ts';
import { canonicalLocale } from '../../http/locale.ts';
import { VersionedCache } from '../../http/versioned-cache.ts';
import type { App, Deps } from '../../routing/public-api/context.ts';
import { keyOf } from '../../routing/public-api/context.ts';
import { canonicalJson, fallbackChain, resolveTranslations } from './resolve.ts';
import { readKeyValues } from './store.ts';

const TranslationSet = Type.Object(
  {
    translations: Type.Record(Type.String(), Type.String()),
    hash: Type.String({ description: 'Content hash of `translations`; also the ETag' }),
    locale: Type.String({ description: 'The requested locale, normalised (BCP 47)' }),
  },
  { additionalProperties: false },
);

interface Cached {
  json: string;
  hash: string;
}

export async function translationRoutes(app: App, { db }: Deps): Promise<void> {
  // Keyed by project, locale and namespace; valid while projects.translations_version holds.
  const cache = new VersionedCache<Cached>(5000);

  app.get(
    '/translations',
    {
      config: { permission: 'public:read', memo: true },
      schema: {
        operationId: 'getTranslations',
        summary: 'Translations of one locale, with fallbacks; send the hash back as If-None-Match for a 304',
        description:
          "Each key's text: the requested locale's, else its language's (de-AT → de), else the project's default locale's, else " +
          "the key's default text. A key with none of these (e.g. imported only from another locale's file) is left out, so the " +
          'app falls back to its own text and can report the key missing.',
        tags: ['translations'],
        querystring: Type.Object({
          locale: Type.Optional(Type.String({ minLength: 1, maxLength: 35, default: 'en' })),
          namespace: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
        }),
        response: {
          200: TranslationSet,
          304: Type.Null({ description: 'Not modified' }),
          ...errorResponses(400, 401, 403, 429),
        },
      },
    },
    async (request, reply) => {
      const locale = canonicalLocale(request.query.locale ?? 'en');
      if (!locale) {
        throw new BadRequestError('Invalid query parameter locale: must be a BCP 47 language tag', [
          { field: 'locale', message: 'must be a BCP 47 language tag' },
        ]);
      }
      const { project } = keyOf(request);
      const namespace = request.query.namespace;
      const cacheKey = `${project.id}\u0000${locale}\u0000${namespace ?? ''}`;
      const version = Number(project.translations_version);
      let entry = cache.get(cacheKey, version, 0);
      if (!entry) {
        const chain = fallbackChain(locale, project.default_locale);
        const translations = resolveTranslations(await readKeyValues(db, project.id, chain, namespace), chain);
        const hash = createHash('sha256').update(canonicalJson(translations)).digest('hex').slice(0, 32);
        entry = { hash, json: JSON.stringify({ translations, hash, locale }) };
        cache.set(cacheKey, version, entry);
      }
      reply.header('etag', etagOf(entry.hash)).header('cache-control', 'no-cache');
      if (ifNoneMatchHits(request.headers['if-none-match'], entry.hash)) return reply.code(304).send(null);
      return reply
        .type('application/json; charset=utf-8')
        .serializer((payload: unknown) => payload as string)
        .send(entry.json as never);
    },
  );
}
