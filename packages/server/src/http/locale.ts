/** A BCP 47 tag in canonical form (`de-at` → `de-AT`), or undefined when it is not one. */
export function canonicalLocale(raw: string): string | undefined {
  if (raw.length === 0 || raw.length > 35) return undefined;
  try {
    const [canonical] = Intl.getCanonicalLocales(raw);
    return canonical;
  } catch {
    return undefined;
  }
}
