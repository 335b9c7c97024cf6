/** Types and labels of the feedback inbox and an idea's page (from the management API's schema). */
import type { paths } from './schema.gen.ts';

type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;

export type FeaturePage = Json<paths['/projects/{projectId}/features']['get']['responses'][200]>;
export type ManagedFeature = FeaturePage['features'][number];
export type FeatureStatus = ManagedFeature['status'];
export type FeatureType = ManagedFeature['type'];
export type FeatureListQuery = NonNullable<paths['/projects/{projectId}/features']['get']['parameters']['query']>;
export type FeatureSort = NonNullable<FeatureListQuery['sort']>;
export type Tag = Json<paths['/projects/{projectId}/tags']['get']['responses'][200]>['tags'][number];
export type Comment = Json<
  paths['/projects/{projectId}/features/{featureId}/comments']['get']['responses'][200]
>['comments'][number];
export type Bug = Json<paths['/projects/{projectId}/bugs']['get']['responses'][200]>['bugs'][number];
export type Board = Json<paths['/projects/{projectId}/board']['get']['responses'][200]>;

/** The statuses in their workflow order, with the labels the board and changelog use. */
export const STATUSES: readonly { value: FeatureStatus; label: string }[] = [
  { value: 'new', label: 'New' },
  { value: 'open', label: 'Open' },
  { value: 'planned', label: 'Planned' },
  { value: 'in-progress', label: 'In progress' },
  { value: 'in-review', label: 'In review' },
  { value: 'accepted', label: 'Accepted' },
  { value: 'done', label: 'Done' },
  { value: 'declined', label: 'Declined' },
];

export const statusLabel = (status: string) => STATUSES.find((s) => s.value === status)?.label ?? status;

export const TYPES: readonly { value: FeatureType; label: string }[] = [
  { value: 'feature', label: 'Feature' },
  { value: 'bug', label: 'Bug' },
];

export const featuresKey = (projectId: string) => ['features', projectId] as const;
export const featureKey = (projectId: string, featureId: string) => ['feature', projectId, featureId] as const;
export const tagsKey = (projectId: string) => ['tags', projectId] as const;

/** A date and time in the reader's locale, short. */
export function when(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** A date in the reader's locale, short (the time in `when`). */
export function day(iso: string): string {
  return new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' });
}
