/** A BCP 47-shaped tag (`en`, `de-AT`, `zh-Hant-TW`), at most 35 characters. */
export function isValidLocale(locale: unknown): locale is string {
  return typeof locale === 'string' && locale.length <= 35 && /^[A-Za-z]{2,8}(?:[-_][A-Za-z0-9]{1,8})*$/.test(locale);
}

/** Letters, digits, dots, underscores and hyphens, at most 100 characters. */
export function isValidNamespace(namespace: unknown): namespace is string {
  return typeof namespace === 'string' && /^[A-Za-z0-9_.-]{1,100}$/.test(namespace);
}
