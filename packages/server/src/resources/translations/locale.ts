import { BadRequestError } from '../../kernel/errors.ts';
import { canonicalLocale } from '../../http/locale.ts';

/** The canonical BCP 47 form of a locale in a request, or a 400 naming the field. */
export function requireLocale(raw: string, field: string): string {
  const locale = canonicalLocale(raw);
  if (!locale)
    throw new BadRequestError(`Invalid field ${field}: must be a BCP 47 language tag`, [
      { field, message: 'must be a BCP 47 language tag' },
    ]);
  return locale;
}

/** Canonicalises the locale keys of a `locale → text` map. */
export function canonicalValues(
  values: Record<string, string> | undefined,
  field: string,
): Record<string, string> | undefined {
  if (!values) return undefined;
  const result: Record<string, string> = {};
  for (const [locale, text] of Object.entries(values)) result[requireLocale(locale, `${field}.${locale}`)] = text;
  return result;
}
