// Intl.getCanonicalLocales is slow next to a map lookup, and apps send the same few tags.
const memo = new Map<string, string | undefined>();
const MEMO_LIMIT = 1000;

/** A BCP 47 tag in canonical form (`de-at` → `de-AT`), or undefined when it is not one. */
export function canonicalLocale(raw: string): string | undefined {
  if (raw.length === 0 || raw.length > 35) return undefined;
  if (memo.has(raw)) return memo.get(raw);
  let canonical: string | undefined;
  try {
    canonical = Intl.getCanonicalLocales(raw)[0];
  } catch {
    canonical = undefined;
  }
  if (memo.size >= MEMO_LIMIT) memo.clear();
  memo.set(raw, canonical);
  return canonical;
}
