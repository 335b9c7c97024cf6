/**
 * The one spelling of a release Signpost matches on (decisions.md, Wave 3): error groups, source
 * maps and release health all call this, so a release page finds its groups, maps and sessions
 * however the SDK spells it (`shop@1.4.2`, `@acme/shop@1.4.2`, `v1.4.2` and `1.4.2` are one).
 */
import semver from 'semver';

/** A `<package>@` prefix dropped, a SemVer normalised (`v1.4.2` → `1.4.2`), anything else kept as sent. */
export function normaliseRelease(raw: string): string {
  const at = raw.lastIndexOf('@');
  const bare = at > 0 ? raw.slice(at + 1) : raw;
  const cleaned = semver.valid(semver.clean(bare) ?? '');
  return cleaned ?? (bare === '' ? raw : bare);
}

/** The spellings to try for an artifact or row stored as sent: the exact one first, then the normalised one. */
export function releaseSpellings(raw: string): string[] {
  const normal = normaliseRelease(raw);
  return normal === raw ? [raw] : [raw, normal];
}
