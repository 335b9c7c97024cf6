/** The shape of a changelog entry: the public one, and the management one built on it. */
import { isTrue } from '../../db/database.ts';
import { STATUS_LABELS } from '../features/index.ts';
import type { ChangelogRow, LinkedFeature, ManagedChangelogRow } from './read-model.ts';
import type { UpdateRow } from './updates-read-model.ts';

/** A linked entry shows its feature's title, type and status as they are now. */
export function presentEntry(row: ChangelogRow) {
  const linked = row.feature_id !== null && row.f_title !== null;
  const status = row.f_status as keyof typeof STATUS_LABELS | null;
  return {
    id: row.id,
    ...(linked ? { featureId: row.feature_id! } : {}),
    projectId: row.project_id,
    featureTitle: linked ? row.f_title! : '',
    featureType: linked ? row.f_type! : '',
    statusKey: linked && status ? status : row.status_key,
    statusLabel: linked && status ? STATUS_LABELS[status] : row.status_label,
    summary: row.summary,
    description: row.description,
    published: isTrue(row.published),
    createdAt: row.created_at,
    publishedAt: row.published_at,
  };
}

/** The public shape (live feature fields for linked entries), plus what only the team sees. */
export function presentManagedEntry(row: ManagedChangelogRow, linked: readonly LinkedFeature[] = []) {
  const { featureId, ...entry } = presentEntry(row);
  const published = isTrue(row.published);
  return {
    ...entry,
    featureId: featureId ?? null,
    featureIds: linked.map((feature) => feature.id),
    features: linked.map((feature) => ({ id: feature.id, title: feature.title, status: feature.status })),
    featureInternal: isTrue(row.f_internal),
    publishAt: published ? null : row.publish_at,
    state: published ? ('published' as const) : row.publish_at ? ('scheduled' as const) : ('draft' as const),
    announcement: isTrue(row.announcement),
  };
}

/** An entry in "What's new": its board permalink, and whether it is newer than the reader's marker. */
export function presentUpdate(row: UpdateRow, board: string, seenThrough: string | null) {
  const status = row.f_title !== null ? (row.f_status as keyof typeof STATUS_LABELS | null) : null;
  return {
    id: row.id,
    summary: row.summary,
    statusKey: status ?? row.status_key,
    statusLabel: status ? STATUS_LABELS[status] : row.status_label,
    publishedAt: row.published_at,
    announcement: isTrue(row.announcement),
    unread: seenThrough === null || row.published_at > seenThrough,
    url: `${board}/changelog/${encodeURIComponent(row.id)}`,
  };
}
