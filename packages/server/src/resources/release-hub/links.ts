/**
 * The two reads of links every surface shows: an error group's ideas and bugs with the people who
 * reported its events, and an idea's or bug's error groups with their events and users.
 */
import type { Queryable } from '../../db/database.ts';
import { NotFoundError } from '../../kernel/errors.ts';
import { presentGroup } from './presenter.ts';
import {
  distinctUsersOf,
  featureOf,
  feedbackLinksOfFeature,
  feedbackLinksOfGroups,
  featuresByIds,
  groupOf,
  groupsByIds,
  reportersOfGroup,
} from './read-model.ts';
import { type LinkRow, linksOfFeature, linksOfGroups, type ResolutionRow, resolutionOf } from './store.ts';

export function presentResolution(row: ResolutionRow | undefined) {
  if (!row) return null;
  return {
    itemType: row.item_type === 'feature' ? ('feature' as const) : ('errorGroup' as const),
    itemId: row.item_id,
    release: row.target_release,
    afterRelease: row.after_release,
    notify: Number(row.notify) === 1,
    resolvedInRelease: row.resolved_release,
    createdAt: row.created_at,
    resolvedAt: row.resolved_at,
  };
}

const REPORTERS = 100;

/** Written links, then those made by feedback (a bug report on its events tied to an idea) not written. */
export async function allLinksOfGroups(db: Queryable, groupIds: string[]): Promise<LinkRow[]> {
  const [written, feedback] = await Promise.all([linksOfGroups(db, groupIds), feedbackLinksOfGroups(db, groupIds)]);
  return merge(written, feedback);
}

function merge(written: LinkRow[], feedback: { feature_id: string; group_id: string; created_at: string }[]) {
  const seen = new Set(written.map((link) => `${link.feature_id} ${link.group_id}`));
  const derived = feedback
    .filter((link) => !seen.has(`${link.feature_id} ${link.group_id}`))
    .map((link) => ({ ...link, source: 'feedback' }));
  return [...written, ...derived];
}

export async function groupLinks(db: Queryable, projectId: string, groupId: string) {
  if (!(await groupOf(db, projectId, groupId))) throw new NotFoundError();
  const links = await allLinksOfGroups(db, [groupId]);
  const [features, reports, resolution] = await Promise.all([
    featuresByIds(
      db,
      projectId,
      links.map((link) => link.feature_id),
    ),
    reportersOfGroup(db, groupId, REPORTERS),
    resolutionOf(db, 'error_group', groupId),
  ]);
  const byId = new Map(features.map((f) => [f.id, f]));
  return {
    items: links.flatMap((link) => {
      const f = byId.get(link.feature_id);
      return f
        ? [{ id: f.id, title: f.title, type: f.type, status: f.status, source: link.source, linkedAt: link.created_at }]
        : [];
    }),
    reporters: reports.map((report) => {
      const meta = (report.metadata ? JSON.parse(report.metadata) : {}) as {
        feedback?: { name?: string | null; email?: string | null };
      };
      return {
        bugReportId: report.id,
        name: meta.feedback?.name ?? null,
        email: meta.feedback?.email ?? null,
        reportedAt: report.first_seen_at,
      };
    }),
    resolution: presentResolution(resolution),
  };
}

export async function featureLinks(db: Queryable, projectId: string, featureId: string) {
  if (!(await featureOf(db, projectId, featureId))) throw new NotFoundError();
  const [written, feedback] = await Promise.all([linksOfFeature(db, featureId), feedbackLinksOfFeature(db, featureId)]);
  const links = merge(written, feedback);
  const groupIds = links.map((link) => link.group_id);
  const [groups, users, resolution] = await Promise.all([
    groupsByIds(db, projectId, groupIds),
    distinctUsersOf(db, groupIds),
    resolutionOf(db, 'feature', featureId),
  ]);
  const byId = new Map(groups.map((g) => [g.id, g]));
  const shown = links.flatMap((link) => {
    const g = byId.get(link.group_id);
    return g ? [{ ...presentGroup(g), source: link.source, linkedAt: link.created_at }] : [];
  });
  return {
    groups: shown,
    events: shown.reduce((sum, g) => sum + g.events, 0),
    users,
    resolution: presentResolution(resolution),
  };
}
