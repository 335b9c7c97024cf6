/** Types and query keys of release health (adoption, crash-free rates), from the management API's schema. */
import type { paths } from './schema.gen.ts';

type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;

export type ProjectHealth = Json<paths['/projects/{projectId}/release-health']['get']['responses'][200]>;
export type ReleaseHealthEntry = ProjectHealth['releases'][number];
export type ReleaseHealth = Json<paths['/projects/{projectId}/release-health/{version}']['get']['responses'][200]>;

export const releaseHealthKey = (projectId: string, days: number) => ['release-health', projectId, days] as const;
export const oneReleaseHealthKey = (projectId: string, version: string, days: number) =>
  ['release-health', projectId, version, days] as const;

/** A rate as a percentage with one decimal, or a dash when there is nothing to divide by. */
export function percent(rate: number | null): string {
  return rate === null ? '–' : `${(Math.floor(rate * 1000) / 10).toFixed(1)} %`;
}

/** A change of a rate in percentage points, signed. */
export function points(change: number | null): string {
  if (change === null) return '–';
  const value = Math.round(change * 1000) / 10;
  return `${value > 0 ? '+' : value < 0 ? '−' : '±'}${Math.abs(value).toFixed(1)} pp`;
}

export type DropSettings = Json<paths['/projects/{projectId}/release-health-settings']['get']['responses'][200]>;
export const dropSettingsKey = (projectId: string) => ['release-health-settings', projectId] as const;
