/** Types and labels of the roadmap and changelog screens, from the generated API schema. */
import { type FeatureStatus, STATUSES } from './features.ts';
import type { paths } from './schema.gen.ts';

export type { FeatureStatus, ManagedFeature as Feature } from './features.ts';

export type Entry =
  paths['/projects/{projectId}/changelog/{entryId}']['get']['responses'][200]['content']['application/json'];
export type EntryState = Entry['state'];
export type StandaloneStatus = 'new' | 'improved' | 'fixed';

/** Every status an idea can have, in the roadmap's column order (`new` first: not yet triaged). */
export const ROADMAP_STATUSES: readonly FeatureStatus[] = STATUSES.map((status) => status.value);

export const STATUS_LABELS = Object.fromEntries(STATUSES.map((status) => [status.value, status.label])) as Record<
  FeatureStatus,
  string
>;

export const STANDALONE_LABELS: Record<StandaloneStatus, string> = { new: 'New', improved: 'Improved', fixed: 'Fixed' };

export const STATE_LABELS: Record<EntryState, string> = {
  draft: 'Draft',
  scheduled: 'Scheduled',
  published: 'Published',
};

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** A time in the reader's time zone, e.g. "24 Nov 2026, 14:05". */
export function formatTime(iso: string): string {
  return dateTime.format(new Date(iso));
}

/** The reader's time zone, e.g. "Europe/Berlin". */
export function timeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}
