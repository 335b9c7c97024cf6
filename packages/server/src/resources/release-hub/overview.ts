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
import { allLinksOfGroups } from './links.ts';
import { presentGroup } from './presenter.ts';
import { type BrokeRow, brokeLists, brokeTotals, entryOf, featuresByIds, groupsByIds } from './read-model.ts';
import { shippedIn } from './store.ts';

const DAY_MS = 24 * 3600_000;
const LISTED = 20;

function withoutComparison<T extends { comparison: unknown }>(entry: T): Omit<T, 'comparison'> {
  const { comparison: _, ...rest } = entry;
  return rest;
}

/** A list of what broke, by events as the page shows it (a UNION ALL keeps no order of its own). */
function listOf(rows: BrokeRow[], kind: BrokeRow['kind']) {
  return rows
    .filter((row) => row.kind === kind)
    .sort((a, b) => Number(b.events) - Number(a.events) || (a.id < b.id ? -1 : 1))
    .map(presentGroup);
}

/**
 * undefined when the project knows nothing of the release (not registered, seen nor resolved in).
 *
 * Statements: one for health and adoption (every release's running totals, which also give the
 * previous release and the comparison; hour rows only for releases older than the range), then
 * one per section in parallel: what broke (the two lists), its counts (with the previous
 * release's new groups), and what shipped (resolutions and the draft). Only when something
 * shipped are its items, groups, links and entry read (at most four more).
 */
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
  const [brokeRows, counts, { resolved, draft }] = await Promise.all([
    brokeLists(db, { projectId, environment, version, limit: LISTED }),
    brokeTotals(db, { projectId, environment, version, previous: previous?.version ?? null }),
    shippedIn(db, projectId, version),
  ]);
  const newGroups = { ...counts.new, list: listOf(brokeRows, 'new') };
  const regressedGroups = { ...counts.regressed, list: listOf(brokeRows, 'regressed') };
  if (!health && newGroups.groups + regressedGroups.groups + resolved.length === 0 && !draft) return undefined;
  const groupIds = resolved.filter((r) => r.item_type === 'error_group').map((r) => r.item_id);
  // What shipped: the ideas and bugs resolved in it and those linked to the groups resolved in it.
  const featureIds = [
    ...new Set([
      ...resolved.filter((r) => r.item_type === 'feature').map((r) => r.item_id),
      ...(groupIds.length === 0 ? [] : await allLinksOfGroups(db, groupIds)).map((link) => link.feature_id),
    ]),
  ];
  const [features, groups, entry] = await Promise.all([
    featuresByIds(db, projectId, featureIds),
    groupsByIds(db, projectId, groupIds),
    draft ? entryOf(db, projectId, draft) : undefined,
  ]);
  const previousNew = counts.previousNew;
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
