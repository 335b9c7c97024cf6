/**
 * The fallback chain of one key: the requested locale, its language (`de-AT` → `de`), the
 * project's default locale, then the key's default text. A key with none of these (no value in
 * the chain and an empty default text, as a key first imported from another locale's file has) is
 * left out, so the app's own fallback and missing-key report take over instead of a blank text.
 */
export function fallbackChain(locale: string, defaultLocale: string): string[] {
  const chain = [locale];
  const language = locale.split('-')[0]!;
  if (language !== locale) chain.push(language);
  if (!chain.includes(defaultLocale)) chain.push(defaultLocale);
  return chain;
}

export interface KeyValues {
  key: string;
  defaultText: string;
  values: Map<string, string>;
}

export function resolveTranslations(keys: Iterable<KeyValues>, chain: readonly string[]): Record<string, string> {
  // No prototype: a key named `__proto__` must stay an ordinary key.
  const result: Record<string, string> = Object.create(null);
  for (const entry of keys) {
    let text: string | undefined;
    for (const locale of chain) {
      text = entry.values.get(locale);
      if (text !== undefined) break;
    }
    if (text !== undefined) result[entry.key] = text;
    else if (entry.defaultText !== '') result[entry.key] = entry.defaultText;
  }
  return result;
}

/** Stable JSON (sorted keys) so that equal content always hashes equal. */
export function canonicalJson(translations: Record<string, string>): string {
  const sorted: Record<string, string> = Object.create(null);
  for (const key of Object.keys(translations).sort()) sorted[key] = translations[key]!;
  return JSON.stringify(sorted);
}
