/** Values for `{name}` placeholders; `count` also picks the plural form. */
export type TranslationValues = Record<string, unknown> & { count?: number };

const rulesCache = new Map<string, Intl.PluralRules>();
const numberCache = new Map<string, Intl.NumberFormat>();

function cached<T>(map: Map<string, T>, key: string, make: () => T): T {
  let value = map.get(key);
  if (!value) {
    value = make();
    map.set(key, value);
  }
  return value;
}

/** The CLDR plural category of `count` in `locale` (`one`, `few`, `other`…), via `Intl.PluralRules`. */
export function pluralCategory(locale: string, count: number): Intl.LDMLPluralRule {
  try {
    return cached(rulesCache, locale, () => new Intl.PluralRules(locale)).select(count);
  } catch {
    return count === 1 ? 'one' : 'other';
  }
}

/**
 * The keys to try for `key` with `count`, most specific first: `key_zero` (for 0, when you have
 * it), `key_<category>`, `key_other`, `key`. The same suffixes as i18next.
 */
export function pluralKeys(key: string, locale: string, count: number | undefined): string[] {
  if (typeof count !== 'number' || !Number.isFinite(count)) return [key];
  const keys = count === 0 ? [`${key}_zero`] : [];
  const category = pluralCategory(locale, count);
  keys.push(`${key}_${category}`);
  if (category !== 'other') keys.push(`${key}_other`);
  keys.push(key);
  return keys;
}

/**
 * Fills `{name}` placeholders from `values`. Numbers are formatted for the locale
 * (`Intl.NumberFormat`), dates with `Intl.DateTimeFormat`; unknown placeholders stay as they are.
 */
export function interpolate(text: string, values: TranslationValues | undefined, locale: string): string {
  if (!values || !text.includes('{')) return text;
  return text.replace(/\{\s*([A-Za-z0-9_.-]+)\s*\}/g, (match, name: string) => {
    if (!Object.hasOwn(values, name)) return match;
    const value = values[name];
    if (typeof value === 'number') {
      try {
        return cached(numberCache, locale, () => new Intl.NumberFormat(locale)).format(value);
      } catch {
        return String(value);
      }
    }
    if (value instanceof Date) {
      try {
        return new Intl.DateTimeFormat(locale).format(value);
      } catch {
        return value.toISOString();
      }
    }
    return String(value ?? '');
  });
}
