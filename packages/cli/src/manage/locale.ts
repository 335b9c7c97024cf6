/** A BCP 47 tag in canonical form when the text looks like a locale (`de`, `pt-BR`), else undefined. */
export function canonical(raw: string): string | undefined {
  if (!/^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})*$/.test(raw)) return undefined;
  try {
    return Intl.getCanonicalLocales(raw.replace(/_/g, '-'))[0];
  } catch {
    return undefined;
  }
}
