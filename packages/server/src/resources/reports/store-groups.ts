/**
 * The store of error_groups, error_events, error_group_users and error_group_tags: the write of a
 * batch of events to their groups (in the error records' transaction, error-writer.ts), the
 * lifecycle on groups, merge and unmerge. Reads are in store-group-reads.ts.
 *
 * A batch costs a fixed few statements whatever its size: one upsert of its groups (in key order,
 * so that processes lock group rows in the same order), one insert of its events, one of its users
 * and one of its tag counts (each in chunks of bounded parameters), and only where needed an update
 * of a status, of users counts, of a merged group's target, or the delete of the events a group no
 * longer keeps (by primary key, never a scan).
 */
import type { Queryable, SqlValue } from '../../db/database.ts';
import { newId } from '../../kernel/ids.ts';
import { normaliseRelease } from '../../kernel/release.ts';
import type { Scope } from '../../kernel/scope.ts';
import type { PreparedEvent } from './error-event.ts';
import { lifecycleAfterRepeat } from './lifecycle.ts';
import { recordAudit } from '../audit/index.ts';
import { compareText } from '../../kernel/compare-text.ts';

/** The latest events a group keeps, besides its first and a sample (ERROR_EVENTS_PER_GROUP). */
export const DEFAULT_EVENTS_PER_GROUP = 100;

export interface GroupEventInput {
  scope: Scope;
  event: PreparedEvent;
  receivedAt: Date;
}

/** A group this write made (`new`) or regressed (the group shown: a merged group's target). */
export interface GroupChange {
  kind: 'new' | 'regressed';
  groupId: string;
  /** The first event of the batch that made the change. */
  input: GroupEventInput;
}

export interface WrittenGroups {
  /** Each input's group id. */
  groupOf: Map<GroupEventInput, string>;
  changes: GroupChange[];
}

interface GroupBatch {
  key: string;
  scope: Scope;
  candidate: string;
  first: GroupEventInput;
  items: GroupEventInput[];
  firstRelease: string | null;
  lastRelease: string | null;
  firstSeen: string;
  lastSeen: string;
  unhandled: boolean;
}

interface UpsertedGroup {
  id: string;
  project_id: string;
  environment: string;
  sdk_environment: string;
  group_key: string;
  own_events: number;
  status: string;
  resolved_in_release: string | null;
  merged_into: string | null;
}

const GROUP_COLUMNS = 17;
const upsertGroups = (rows: number) => `
  INSERT INTO error_groups (id, project_id, environment, sdk_environment, group_key, title, error_type, culprit, level,
    unhandled, first_seen_at, last_seen_at, first_release, last_release, own_events, events, users)
  VALUES ${Array.from({ length: rows }, () => `(${Array.from({ length: GROUP_COLUMNS }, () => '?').join(', ')})`).join(', ')}
  ON CONFLICT (project_id, environment, sdk_environment, group_key) DO UPDATE SET
    own_events = error_groups.own_events + excluded.own_events,
    events = error_groups.events + excluded.events,
    last_seen_at = CASE WHEN excluded.last_seen_at > error_groups.last_seen_at THEN excluded.last_seen_at ELSE error_groups.last_seen_at END,
    last_release = COALESCE(excluded.last_release, error_groups.last_release),
    first_release = COALESCE(error_groups.first_release, excluded.first_release),
    unhandled = CASE WHEN excluded.unhandled = 1 THEN 1 ELSE error_groups.unhandled END
  RETURNING id, project_id, environment, sdk_environment, group_key, own_events, status, resolved_in_release, merged_into`;

const EVENT_COLUMNS = 9;
const insertEvents = (rows: number) => `
  INSERT INTO error_events (group_id, ordinal, event_id, received_at, release, sdk_environment, user_key, handled, payload)
  VALUES ${Array.from({ length: rows }, () => `(${Array.from({ length: EVENT_COLUMNS }, () => '?').join(', ')})`).join(', ')}`;

const insertUsers = (rows: number) => `
  INSERT INTO error_group_users (group_id, user_key) VALUES ${Array.from({ length: rows }, () => '(?, ?)').join(', ')}
  ON CONFLICT (group_id, user_key) DO NOTHING RETURNING group_id`;

const upsertTags = (rows: number) => `
  INSERT INTO error_group_tags (group_id, tag_key, tag_value, count)
  VALUES ${Array.from({ length: rows }, () => '(?, ?, ?, ?)').join(', ')}
  ON CONFLICT (group_id, tag_key, tag_value) DO UPDATE SET count = error_group_tags.count + excluded.count`;

/** Rows per statement: parameters stay far below either database's limit. */
const CHUNK = 200;

async function inChunks<T>(rows: readonly T[], run: (chunk: readonly T[]) => Promise<void>): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) await run(rows.slice(i, i + CHUNK));
}

const scopeKey = (scope: Scope, event: PreparedEvent) =>
  `${scope.projectId}\u0000${scope.environment}\u0000${event.sdkEnvironment}\u0000${event.groupKey}`;

function batchesOf(inputs: readonly GroupEventInput[]): GroupBatch[] {
  const batches = new Map<string, GroupBatch>();
  for (const input of inputs) {
    const key = scopeKey(input.scope, input.event);
    const at = input.receivedAt.toISOString();
    let batch = batches.get(key);
    if (!batch) {
      batch = {
        key,
        scope: input.scope,
        candidate: newId('eg'),
        first: input,
        items: [],
        firstRelease: null,
        lastRelease: null,
        firstSeen: at,
        lastSeen: at,
        unhandled: false,
      };
      batches.set(key, batch);
    }
    batch.items.push(input);
    // Groups keep the normalised release, so `shop@1.4.2` and `1.4.2` are one release's groups.
    const release = input.event.release === null ? null : normaliseRelease(input.event.release);
    batch.firstRelease ??= release;
    batch.lastRelease = release ?? batch.lastRelease;
    if (at < batch.firstSeen) batch.firstSeen = at;
    if (at > batch.lastSeen) batch.lastSeen = at;
    if (input.event.handled === false) batch.unhandled = true;
  }
  return [...batches.values()].sort((a, b) => compareText(a.key, b.key));
}

/** Whether a group keeps its event of `ordinal` once it is older than its latest `cap`. */
const sampled = (ordinal: number) => ordinal === 1 || (ordinal & (ordinal - 1)) === 0;

/**
 * Writes a batch of events to their groups in `tx`, and answers each input's group id (the group
 * its key names; a merged group's events stay its own, its target counts them too).
 */
export async function writeGroupEvents(
  tx: Queryable,
  inputs: readonly GroupEventInput[],
  cap = DEFAULT_EVENTS_PER_GROUP,
): Promise<WrittenGroups> {
  const batches = batchesOf(inputs);
  const params: SqlValue[] = [];
  for (const b of batches) {
    const e = b.first.event;
    const n = b.items.length;
    params.push(b.candidate, b.scope.projectId, b.scope.environment, e.sdkEnvironment, e.groupKey, e.title);
    params.push(e.errorType, e.culprit, e.level, b.unhandled ? 1 : 0, b.firstSeen, b.lastSeen);
    params.push(b.firstRelease, b.lastRelease, n, n, 0);
  }
  const rows = await tx.all<UpsertedGroup>(upsertGroups(batches.length), params);
  const byKey = new Map<string, UpsertedGroup>();
  for (const row of rows) {
    byKey.set(`${row.project_id}\u0000${row.environment}\u0000${row.sdk_environment}\u0000${row.group_key}`, row);
  }
  const groupOf = new Map<GroupEventInput, string>();
  const events: SqlValue[][] = [];
  const users: [string, string][] = [];
  const tags = new Map<string, [string, string, string, number]>();
  const dropped: [string, number[]][] = [];
  const changes: GroupChange[] = [];
  for (const b of batches) {
    const group = byKey.get(b.key)!;
    const isNew = group.id === b.candidate;
    if (isNew) changes.push({ kind: 'new', groupId: group.id, input: b.first });
    const regressed = await applyGroupLifecycle(tx, group, b, isNew);
    if (regressed) changes.push({ kind: 'regressed', groupId: regressed, input: b.first });
    const firstOrdinal = Number(group.own_events) - b.items.length + 1;
    const gone: number[] = [];
    for (const [i, item] of b.items.entries()) {
      const ordinal = firstOrdinal + i;
      const e = item.event;
      groupOf.set(item, group.id);
      const release = e.release === null ? null : normaliseRelease(e.release);
      events.push([group.id, ordinal, e.eventId, item.receivedAt.toISOString(), release, e.sdkEnvironment]);
      events[events.length - 1]!.push(e.userKey, e.handled === null ? null : e.handled ? 1 : 0, e.payload);
      if (e.userKey) users.push([group.id, e.userKey]);
      for (const [k, v] of e.tags) {
        const key = `${group.id}\u0000${k}\u0000${v}`;
        const found = tags.get(key);
        if (found) found[3]++;
        else tags.set(key, [group.id, k, v, 1]);
      }
      const old = ordinal - cap;
      if (old > 1 && !sampled(old)) gone.push(old);
    }
    if (gone.length > 0) dropped.push([group.id, gone]);
  }
  await inChunks(events, (chunk) => tx.run(insertEvents(chunk.length), chunk.flat()).then(() => undefined));
  for (const [groupId, ordinals] of dropped) {
    await tx.run(`DELETE FROM error_events WHERE group_id = ? AND ordinal IN (${ordinals.map(() => '?').join(', ')})`, [
      groupId,
      ...ordinals,
    ]);
  }
  await countUsers(tx, users, batches, byKey);
  const tagRows = [...tags.entries()].sort(([a], [b]) => compareText(a, b)).map(([, row]) => row);
  await inChunks(tagRows, (chunk) => tx.run(upsertTags(chunk.length), chunk.flat()).then(() => undefined));
  return { groupOf, changes };
}

/** Adds each group's new distinct users to its count (and a merged group's target's). */
async function countUsers(
  tx: Queryable,
  users: readonly [string, string][],
  batches: readonly GroupBatch[],
  byKey: ReadonlyMap<string, UpsertedGroup>,
): Promise<void> {
  const unique = [...new Map(users.map((pair) => [pair.join('\u0000'), pair])).values()];
  const added = new Map<string, number>();
  await inChunks(unique, async (chunk) => {
    for (const row of await tx.all<{ group_id: string }>(insertUsers(chunk.length), chunk.flat())) {
      added.set(row.group_id, (added.get(row.group_id) ?? 0) + 1);
    }
  });
  if (added.size === 0) return;
  const ids = [...added.keys()].sort();
  await tx.run(
    `UPDATE error_groups SET users = users + CASE id ${ids.map(() => 'WHEN ? THEN ?').join(' ')} ELSE 0 END
      WHERE id IN (${ids.map(() => '?').join(', ')})`,
    [...ids.flatMap((id) => [id, added.get(id)!]), ...ids],
  );
  const targets = new Set<string>();
  for (const b of batches) {
    const group = byKey.get(b.key)!;
    if (group.merged_into && added.has(group.id)) targets.add(group.merged_into);
  }
  for (const target of targets) await recountUsers(tx, target);
}

/**
 * The status after a batch: a repeat of a resolved group may regress it (on the group shown: a
 * merged group's target), and the target of a merged group counts the batch too.
 */
async function applyGroupLifecycle(
  tx: Queryable,
  group: UpsertedGroup,
  b: GroupBatch,
  isNew: boolean,
): Promise<string | undefined> {
  if (isNew) return undefined;
  let shown = { id: group.id, status: group.status, resolved_in_release: group.resolved_in_release };
  if (group.merged_into) {
    const target = await tx.get<typeof shown>(
      `UPDATE error_groups SET events = events + ?,
         last_seen_at = CASE WHEN ? > last_seen_at THEN ? ELSE last_seen_at END,
         last_release = COALESCE(?, last_release)
       WHERE id = ? RETURNING id, status, resolved_in_release`,
      [b.items.length, b.lastSeen, b.lastSeen, b.lastRelease, group.merged_into],
    );
    if (!target) return undefined;
    shown = target;
  }
  const status = lifecycleAfterRepeat(shown.status, shown.resolved_in_release, b.lastRelease);
  if (status === shown.status) return undefined;
  // regressed_at: when the regression began (its suspect flags are the ones changed the hour before).
  await tx.run(
    'UPDATE error_groups SET status = ?, regressed_in_release = ?, regressed_at = COALESCE(?, regressed_at) WHERE id = ?',
    [status, status === 'regressed' ? b.lastRelease : null, status === 'regressed' ? b.firstSeen : null, shown.id],
  );
  return status === 'regressed' ? shown.id : undefined;
}

/** The ids of a group and the groups merged into it. */
export async function familyOf(db: Queryable, groupId: string): Promise<string[]> {
  const rows = await db.all<{ id: string }>('SELECT id FROM error_groups WHERE id = ? OR merged_into = ?', [
    groupId,
    groupId,
  ]);
  return rows.map((row) => row.id);
}

async function recountUsers(tx: Queryable, groupId: string): Promise<void> {
  await tx.run(
    `UPDATE error_groups SET users = (
       SELECT COUNT(DISTINCT u.user_key) FROM error_group_users u
       WHERE u.group_id IN (SELECT f.id FROM error_groups f WHERE f.id = ? OR f.merged_into = ?))
     WHERE id = ?`,
    [groupId, groupId, groupId],
  );
}

/** A group's counts and times from its family: its own and those merged into it. */
async function recountFamily(tx: Queryable, groupId: string): Promise<void> {
  await tx.run(
    `UPDATE error_groups SET
       events = (SELECT SUM(f.own_events) FROM error_groups f WHERE f.id = ? OR f.merged_into = ?),
       first_seen_at = (SELECT MIN(f.first_seen_at) FROM error_groups f WHERE f.id = ? OR f.merged_into = ?),
       last_seen_at = (SELECT MAX(f.last_seen_at) FROM error_groups f WHERE f.id = ? OR f.merged_into = ?),
       unhandled = (SELECT MAX(f.unhandled) FROM error_groups f WHERE f.id = ? OR f.merged_into = ?)
     WHERE id = ?`,
    [groupId, groupId, groupId, groupId, groupId, groupId, groupId, groupId, groupId],
  );
  await recountUsers(tx, groupId);
}

export type MergeOutcome = 'merged' | 'not-found' | 'same-group' | 'other-environment';

/**
 * Merges `sourceIds` (and the groups merged into them) into `targetId`: they are no longer listed,
 * their events, users and tags show on the target, and their next events count there.
 */
export async function mergeGroups(
  tx: Queryable,
  projectId: string,
  targetId: string,
  sourceIds: readonly string[],
): Promise<MergeOutcome> {
  if (sourceIds.includes(targetId)) return 'same-group';
  const ids = [targetId, ...sourceIds];
  const rows = await tx.all<{ id: string; environment: string; merged_into: string | null }>(
    `SELECT id, environment, merged_into FROM error_groups WHERE project_id = ? AND id IN (${ids.map(() => '?').join(', ')})`,
    [projectId, ...ids],
  );
  if (rows.length !== new Set(ids).size || rows.some((row) => row.merged_into !== null)) return 'not-found';
  if (rows.some((row) => row.environment !== rows[0]!.environment)) return 'other-environment';
  for (const source of sourceIds) {
    await tx.run('UPDATE error_groups SET merged_into = ? WHERE project_id = ? AND (id = ? OR merged_into = ?)', [
      targetId,
      projectId,
      source,
      source,
    ]);
  }
  await recountFamily(tx, targetId);
  return 'merged';
}

/** Takes a merged group out of its target again, with its own counts; false if it is not merged. */
export async function unmergeGroup(tx: Queryable, projectId: string, groupId: string): Promise<boolean> {
  const row = await tx.get<{ merged_into: string | null }>(
    'SELECT merged_into FROM error_groups WHERE id = ? AND project_id = ?',
    [groupId, projectId],
  );
  if (!row?.merged_into) return false;
  await tx.run('UPDATE error_groups SET merged_into = NULL WHERE id = ?', [groupId]);
  await recountFamily(tx, groupId);
  await recountFamily(tx, row.merged_into);
  return true;
}

export type GroupStatus = 'open' | 'resolved' | 'ignored' | 'regressed';

/**
 * Sets a group's status; resolving `inNextRelease` keeps its last release, after which a new
 * event regresses it. False when there is no such group; 'no-release' without a known release.
 */
export async function setGroupStatus(
  db: Queryable,
  projectId: string,
  groupId: string,
  status: GroupStatus,
  inNextRelease: boolean,
): Promise<boolean | 'no-release'> {
  const group = await db.get<{ last_release: string | null; status: string; resolved_in_release: string | null }>(
    'SELECT last_release, status, resolved_in_release FROM error_groups WHERE id = ? AND project_id = ? AND merged_into IS NULL',
    [groupId, projectId],
  );
  if (!group) return false;
  const resolvingLater = inNextRelease && status === 'resolved';
  if (resolvingLater && group.last_release === null) return 'no-release';
  const resolvedIn = resolvingLater ? group.last_release : null;
  await db.run(
    'UPDATE error_groups SET status = ?, resolved_in_release = ?, regressed_in_release = NULL WHERE id = ?',
    [status, resolvedIn, groupId],
  );
  // In the caller's transaction: the group routes' use case and the release hub's shipping alike.
  await recordAudit(db, {
    projectId,
    action: 'error_group.status_changed',
    target: { type: 'error_group', id: groupId },
    before: { status: group.status, resolvedInRelease: group.resolved_in_release },
    after: { status, resolvedInRelease: resolvedIn },
  });
  return true;
}

/**
 * Retention (ERROR_EVENT_RETENTION_DAYS): deletes the kept events received before `cutoff` of up
 * to `limit` groups after `afterId` (by id; only groups first seen before the cutoff can have
 * such events), each group's by its primary key's range. Groups, counts, users and tags stay.
 * Answers the events deleted and the id to go on after, undefined once every group was looked at.
 */
export async function pruneGroupEvents(
  db: Queryable,
  cutoff: string,
  afterId: string,
  limit: number,
): Promise<{ deleted: number; next: string | undefined }> {
  const groups = await db.all<{ id: string }>(
    'SELECT id FROM error_groups WHERE id > ? AND first_seen_at < ? ORDER BY id LIMIT ?',
    [afterId, cutoff, limit],
  );
  if (groups.length === 0) return { deleted: 0, next: undefined };
  const ids = groups.map((group) => group.id);
  const { changes } = await db.run(
    `DELETE FROM error_events WHERE group_id IN (${ids.map(() => '?').join(', ')}) AND received_at < ?`,
    [...ids, cutoff],
  );
  return { deleted: changes, next: groups.length < limit ? undefined : ids[ids.length - 1] };
}

/**
 * Retention on PostgreSQL, where error_events is partitioned by week of `received_at` and the
 * partition keeper drops the weeks wholly past the cutoff: deletes up to `limit` kept events
 * received before `cutoff`, which PostgreSQL looks for only in the partitions that can hold them
 * (the edge week, which holds older and newer events, and DEFAULT), by their time index. Groups,
 * counts, users and tags stay. Answers the events deleted.
 */
export async function pruneEventsBefore(db: Queryable, cutoff: string, limit: number): Promise<number> {
  const { changes } = await db.run(
    `DELETE FROM error_events WHERE received_at < ? AND (group_id, ordinal, received_at) IN
       (SELECT group_id, ordinal, received_at FROM error_events WHERE received_at < ? LIMIT ?)`,
    [cutoff, cutoff, limit],
  );
  return changes;
}
