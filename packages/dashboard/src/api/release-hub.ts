/** Types and query keys of releases as the hub (issue 33), from the management API's schema. */
import type { paths } from './schema.gen.ts';

type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;

export type ReleaseOverview = Json<paths['/projects/{projectId}/releases/{version}/overview']['get']['responses'][200]>;
export type GroupLinks = Json<paths['/projects/{projectId}/error-groups/{groupId}/links']['get']['responses'][200]>;
export type FeatureErrorLinks = Json<
  paths['/projects/{projectId}/features/{featureId}/error-links']['get']['responses'][200]
>;
export type Resolution = GroupLinks['resolution'];

export const releaseOverviewKey = (projectId: string, version: string, days: number) =>
  ['release-hub', projectId, 'overview', version, days] as const;
export const groupLinksKey = (projectId: string, groupId: string) =>
  ['release-hub', projectId, 'group', groupId] as const;
export const featureLinksKey = (projectId: string, featureId: string) =>
  ['release-hub', projectId, 'feature', featureId] as const;
/** Everything of the hub in a project: links and resolutions change what every view shows. */
export const releaseHubKey = (projectId: string) => ['release-hub', projectId] as const;

/** A resolution in words. */
export function resolutionText(resolution: Resolution): string {
  if (!resolution) return 'Not resolved in a release.';
  if (resolution.resolvedInRelease) return `Shipped in ${resolution.resolvedInRelease}.`;
  if (resolution.release) return `Resolved in ${resolution.release}; ships when that release is created.`;
  return `Resolved in the next release${resolution.afterRelease ? ` (after ${resolution.afterRelease})` : ''}; ships when it is created.`;
}
