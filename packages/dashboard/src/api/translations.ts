/** Types and query keys of the translations and releases screens (from the management API's schema). */
import type { paths } from './schema.gen.ts';

type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;

export type KeyPage = Json<paths['/projects/{projectId}/translations/keys']['get']['responses'][200]>;
export type TranslationKey = KeyPage['keys'][number];
export type Summary = Json<paths['/projects/{projectId}/translations/summary']['get']['responses'][200]>;
export type Locales = Json<paths['/projects/{projectId}/translations/locales']['get']['responses'][200]>;
export type MissingEntry = Json<
  paths['/projects/{projectId}/translations/missing']['get']['responses'][200]
>['missing'][number];
export type ImportResult = Json<paths['/projects/{projectId}/translations/import']['post']['responses'][200]>;
export type Release = Json<paths['/projects/{projectId}/releases']['get']['responses'][200]>['releases'][number];
export type VersionInfo = Json<paths['/projects/{projectId}/releases/check']['get']['responses'][200]>;

export const translationsKey = (projectId: string) => ['translations', projectId] as const;
export const releasesKey = (projectId: string) => ['releases', projectId] as const;

/** SemVer 2.0.0 (with the optional leading v the server also accepts). */
const SEMVER =
  /^v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

export function isSemver(version: string): boolean {
  return SEMVER.test(version.trim());
}
