/**
 * A release's page (issue 33): its adoption and health (release-health), what broke in it (error
 * groups new in it and regressed in it, by index on the release), what shipped in it (ideas, bugs
 * and groups resolved in it, its drafted or published changelog entry) and the comparison with the
 * release before it. Every part is an index range or a bounded list, so it stays flat as sessions,
 * groups and releases grow.
 */
import type { Database } from '../../db/database.ts';
import { normaliseRelease } from '../../kernel/release.ts';
import { projectHealth } from '../release-health/index.ts';
import { entryOf, featuresByIds, groupsByIds, groupsOfRelease, releaseGroupTotals } from './read-model.ts';
import { allLinksOfGroups } from './links.ts';
import { presentGroup } from './presenter.ts';
import { draftOf, resolvedIn } from './store.ts';

const DAY_MS = 24 * 3600_000;
const LISTED = 20;

async function broke(db: Database, projectId: string, environment: string, version: string, kind: 'new' | 'regressed') {
  const where = { projectId, environment, version, kind };
  const [totals, groups] = await Promise.all([
    releaseGroupTotals(db, where),
    groupsOfRelease(db, { ...where, limit: LISTED }),
  ]);
  return { ...totals, list: groups.map(presentGroup) };
}

function withoutComparison<T extends { comparison: unknown }>(entry: T): Omit<T, 'comparison'> {
  const { comparison: _, ...rest } = entry;
  return rest;
}

/** undefined when the project knows nothing of the release (not registered, seen nor resolved in). */
export async function releaseOverview(
  db: Database,
  input: { projectId: string; environment: 'live' | 'test'; version: string; days: number },
) {
  const { projectId, environment } = input;
  const version = normaliseRelease(input.version);
  const until = new Date(Math.floor(Date.now() / 3600_000) * 3600_000 + 3600_000);
  const range = { sdkEnvironment: undefined, since: new Date(until.getTime() - input.days * DAY_MS), until };
  const list = await projectHealth(db, { projectId, environment }, range);
  const index = list.findIndex((entry) => entry.version === version);
  const health = index === -1 ? null : list[index]!;
  const previous = index === -1 ? null : (list[index + 1] ?? null);
  const [newGroups, regressedGroups, resolved, draft] = await Promise.all([
    broke(db, projectId, environment, version, 'new'),
    broke(db, projectId, environment, version, 'regressed'),
    resolvedIn(db, projectId, version),
    draftOf(db, projectId, version),
  ]);
  if (!health && newGroups.groups + regressedGroups.groups + resolved.length === 0 && !draft) return undefined;
  const groupIds = resolved.filter((r) => r.item_type === 'error_group').map((r) => r.item_id);
  // What shipped: the ideas and bugs resolved in it and those linked to the groups resolved in it.
  const featureIds = [
    ...new Set([
      ...resolved.filter((r) => r.item_type === 'feature').map((r) => r.item_id),
      ...(await allLinksOfGroups(db, groupIds)).map((link) => link.feature_id),
    ]),
  ];
  const [features, groups, entry, previousNew] = await Promise.all([
    featuresByIds(db, projectId, featureIds),
    groupsByIds(db, projectId, groupIds),
    draft ? entryOf(db, projectId, draft) : undefined,
    previous ? releaseGroupTotals(db, { projectId, environment, version: previous.version, kind: 'new' }) : undefined,
  ]);
  return {
    version,
    since: range.since.toISOString(),
    until: range.until.toISOString(),
    health: health ? withoutComparison(health) : null,
    broke: { new: newGroups, regressed: regressedGroups },
    shipped: {
      items: features.map((f) => ({ id: f.id, title: f.title, type: f.type, status: f.status })),
      errorGroups: groups.map(presentGroup),
      changelogEntry: entry
        ? {
            id: entry.id,
            summary: entry.summary,
            published: Number(entry.published) === 1,
            publishedAt: entry.published_at,
          }
        : null,
    },
    comparison: {
      previous: previous?.version ?? null,
      crashFreeSessionsChange: health?.comparison.crashFreeSessionsChange ?? null,
      crashFreeUsersChange: health?.comparison.crashFreeUsersChange ?? null,
      usersChange: health && previous ? health.users.total - previous.users.total : null,
      versionChecksChange: health && previous ? health.versionChecks - previous.versionChecks : null,
      newGroupsChange: previousNew ? newGroups.groups - previousNew.groups : null,
    },
  };
}
