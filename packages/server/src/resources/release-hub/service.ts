/**
 * Releases as the hub (issue 33), the use cases every surface shares: link an idea or bug to an
 * error group and unlink it, resolve an item in a release ("in X" or "in the next release"), and
 * what happens when a release goes live: the resolved ideas and bugs (and those linked to resolved
 * groups) move to `done`, their followers are told once through the outbox, and a draft
 * changelog entry lists them for the team to edit and publish.
 */
import semver from 'semver';
import type { Database, Queryable } from '../../db/database.ts';
import { onDomainEvent } from '../../db/domain-events.ts';
import { BadRequestError, NotFoundError } from '../../kernel/errors.ts';
import { escapeHtml } from '../../kernel/html.ts';
import { normaliseRelease } from '../../kernel/release.ts';
import { insertEntry } from '../changelog/index.ts';
import { shipFeaturesInRelease } from '../features/index.ts';
import { groupOfErrorRef, setGroupStatus } from '../reports/index.ts';
import { allLinksOfGroups } from './links.ts';
import { featureOf, featuresByIds, groupOf, releaseVersions } from './read-model.ts';
import {
  deleteLink,
  deleteResolution,
  draftOf,
  insertDraft,
  insertLink,
  type ItemType,
  markResolved,
  pendingResolutions,
  type ResolutionRow,
  resolutionOf,
  upsertResolution,
} from './store.ts';

async function requireBoth(db: Queryable, projectId: string, groupId: string, featureId: string) {
  const [group, feature] = await Promise.all([groupOf(db, projectId, groupId), featureOf(db, projectId, featureId)]);
  if (!group) throw new NotFoundError();
  if (!feature) {
    throw new BadRequestError('Invalid field featureId: no such idea or bug in this project', [
      { field: 'featureId', message: 'no such idea or bug in this project' },
    ]);
  }
  return { group, feature };
}

/** Links an idea or bug to a group; true when the link is new. */
export async function linkFeatureToGroup(db: Database, projectId: string, groupId: string, featureId: string) {
  await requireBoth(db, projectId, groupId, featureId);
  return insertLink(db, projectId, featureId, groupId, 'manual');
}

/** false when there was no such link. */
export async function unlinkFeatureFromGroup(db: Database, projectId: string, groupId: string, featureId: string) {
  if (!(await groupOf(db, projectId, groupId))) throw new NotFoundError();
  return deleteLink(db, projectId, featureId, groupId);
}

/** Newest first by SemVer; other versions are never "newer" than anything. */
function newest(versions: readonly (string | null)[]): string | null {
  const valid = versions.filter((v): v is string => v !== null && semver.valid(v) !== null);
  return valid.sort(semver.rcompare)[0] ?? null;
}

export interface ResolveInput {
  /** "in X"; omitted: in the next release. */
  release?: string | undefined;
  notify?: boolean | undefined;
}

/**
 * Resolves an idea, bug or error group in a release. A group is resolved at once in the next
 * release (its status, as PATCH does; a newer release's event regresses it) and its linked ideas
 * and bugs ship when the release goes live. A release that is already live ships at once.
 */
export async function resolveInRelease(
  db: Database,
  projectId: string,
  itemType: ItemType,
  itemId: string,
  input: ResolveInput,
): Promise<ResolutionRow> {
  const target = input.release === undefined ? null : normaliseRelease(input.release.trim());
  if (target === '') {
    throw new BadRequestError('Invalid field release: must not be empty', [
      { field: 'release', message: 'must not be empty' },
    ]);
  }
  return db.transaction(async (tx) => {
    const releases = await releaseVersions(tx, projectId);
    let after = newest(releases);
    if (itemType === 'feature') {
      if (!(await featureOf(tx, projectId, itemId))) throw new NotFoundError();
    } else {
      const group = await groupOf(tx, projectId, itemId);
      if (!group) throw new NotFoundError();
      after = newest([after, group.last_release]);
      await setGroupStatus(tx, projectId, itemId, 'resolved', group.last_release !== null);
    }
    const row = await upsertResolution(tx, {
      projectId,
      itemType,
      itemId,
      targetRelease: target,
      afterRelease: target === null ? after : null,
      notify: input.notify ?? true,
    });
    if (target !== null && releases.includes(target)) await releaseWentLive(tx, projectId, target);
    // Shipped at once when the release is live: the row now names it.
    return (await resolutionOf(tx, row.item_type, row.item_id)) ?? row;
  });
}

/** Cancels a resolution that has not gone live; false when there is none. */
export function cancelResolution(db: Database, projectId: string, itemType: ItemType, itemId: string) {
  return deleteResolution(db, projectId, itemType, itemId);
}

function matches(resolution: ResolutionRow, version: string): boolean {
  if (resolution.target_release !== null) return normaliseRelease(resolution.target_release) === version;
  if (!semver.valid(version)) return false;
  return resolution.after_release === null || !semver.valid(resolution.after_release)
    ? true
    : semver.gt(version, resolution.after_release);
}

/**
 * A release went live: every pending resolution it satisfies is marked with it; the ideas and
 * bugs they name (directly or linked to a resolved group) move to `done` and are listed in a
 * drafted changelog entry. Runs in the release's transaction; a second call finds nothing pending.
 */
export async function releaseWentLive(tx: Queryable, projectId: string, version: string): Promise<string[]> {
  const due = (await pendingResolutions(tx, projectId)).filter((row) => matches(row, version));
  if (due.length === 0) return [];
  const notify = new Map<string, boolean>();
  for (const row of due) if (row.item_type === 'feature') notify.set(row.item_id, row.notify === 1);
  const groupRows = due.filter((row) => row.item_type === 'error_group');
  const groupNotify = new Map(groupRows.map((row) => [row.item_id, row.notify === 1]));
  for (const link of await allLinksOfGroups(
    tx,
    groupRows.map((row) => row.item_id),
  )) {
    // An item's own resolution decides; else any resolved group that tells.
    if (!notify.has(link.feature_id)) notify.set(link.feature_id, groupNotify.get(link.group_id) ?? true);
  }
  const features = (await featuresByIds(tx, projectId, [...notify.keys()])).filter(
    (f) => f.status !== 'done' && f.status !== 'declined',
  );
  // A release has one draft: resolutions shipped in it later (resolved "in X" once X is live) keep it.
  let entryId: string | null = (await draftOf(tx, projectId, version)) ?? null;
  if (features.length > 0 && entryId === null) {
    features.sort((a, b) => (a.id < b.id ? -1 : 1));
    const items = features.map((f) => `<li>${escapeHtml(f.title)}</li>`).join('');
    entryId = await insertEntry(tx, projectId, {
      summary: `Release ${version}`,
      description: `<p>Shipped and fixed in ${escapeHtml(version)}:</p><ul>${items}</ul>`,
      featureId: features[0]!.id,
      featureIds: features.map((f) => f.id),
      statusKey: 'fixed',
      published: false,
    });
    await insertDraft(tx, projectId, version, entryId);
  }
  await markResolved(
    tx,
    due.map((row) => row.id),
    version,
  );
  return shipFeaturesInRelease(
    tx,
    projectId,
    features.map((f) => ({ featureId: f.id, notify: notify.get(f.id) ?? true })),
    { version, entryId },
  );
}

/** Subscribes release-hub to `release.created`; app.ts calls it once per app it builds. */
export function registerReleaseHubHandlers(): void {
  onDomainEvent('release.created', 'release-hub', async (tx, event) => {
    await releaseWentLive(tx, event.projectId, event.version);
  });
  onDomainEvent('release.seen', 'release-hub', async (tx, event) => {
    await releaseWentLive(tx, event.projectId, event.version);
  });
  // An idea or bug filed naming the error its user just hit (the widget's errorEventId) is linked
  // to that error's group, in the item's transaction; an unknown or foreign id links nothing.
  onDomainEvent('feature.created', 'release-hub', async (tx, event) => {
    if (!event.errorEventId) return;
    const groupId = await groupOfErrorRef(tx, event.projectId, event.errorEventId);
    if (groupId) await insertLink(tx, event.projectId, event.featureId, groupId, 'event');
  });
}
