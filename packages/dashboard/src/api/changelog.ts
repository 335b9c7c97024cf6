/** Types and labels of the roadmap and changelog screens, from the generated API schema. */
import type { paths } from './schema.gen.ts';

export type Feature =
  paths['/projects/{projectId}/features']['get']['responses'][200]['content']['application/json']['features'][number];
export type FeatureStatus = Feature['status'];

export type Entry =
  paths['/projects/{projectId}/changelog/{entryId}']['get']['responses'][200]['content']['application/json'];
export type EntryState = Entry['state'];
export type StandaloneStatus = 'new' | 'improved' | 'fixed';

/** Every status an idea can have, in the roadmap's column order (`new` first: not yet triaged). */
export const ROADMAP_STATUSES: readonly FeatureStatus[] = [
  'new',
  'open',
  'planned',
  'in-progress',
  'in-review',
  'accepted',
  'done',
  'declined',
];

export const STATUS_LABELS: Record<FeatureStatus, string> = {
  new: 'New',
  open: 'Open',
  planned: 'Planned',
  'in-progress': 'In progress',
  'in-review': 'In review',
  accepted: 'Accepted',
  done: 'Done',
  declined: 'Declined',
};

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
