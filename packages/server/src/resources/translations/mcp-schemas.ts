import { z } from 'zod';

export const MAX_KEYS_PER_CALL = 200;
export const MAX_PAGE = 200;

export const LocaleList = z.array(z.string());

export const TranslationKeyOutput = z.object({
  key: z.string(),
  defaultText: z.string(),
  namespace: z.string().nullable(),
  category: z.string().nullable(),
  translations: z.record(z.string(), z.string()).describe('Locale code to text'),
  updatedAt: z.string(),
});

/** Locales of a project, as stored: the default locale and the JSON list of supported ones. */
export function projectLocales(project: { default_locale: string; supported_locales: string }) {
  let supported: string[] = [];
  try {
    const parsed: unknown = JSON.parse(project.supported_locales);
    if (Array.isArray(parsed)) supported = parsed.filter((value): value is string => typeof value === 'string');
  } catch {
    supported = [];
  }
  if (!supported.includes(project.default_locale)) supported.unshift(project.default_locale);
  return { defaultLocale: project.default_locale, supportedLocales: supported };
}
