/**
 * The write of log_groups (POST /logs and every log intake, queued by log-writer.ts): a batch's
 * entries folded per fingerprint, one upsert per write, the groups' lines written in the same
 * transaction (store-lines.ts). The reads of log_groups are in store.ts.
 */
import { hash } from 'node:crypto';
import { placeholders, type Database, type Queryable, type SqlValue } from '../../db/database.ts';
import { newId } from '../../kernel/ids.ts';
import type { Scope } from '../../kernel/scope.ts';
import { groupKey, recentGroupKey } from './group-key.ts';
import type { KeyChanges, SqliteKeyIndex } from './store-sqlite-keys.ts';
import type { LogEntry } from './schemas.ts';
import { writeLines } from './store-lines.ts';

/**
 * The given fingerprint, else a hash of level, category and message. A given one is made well
 * formed (a lone surrogate becomes U+FFFD), as both databases store it: the write matches the
 * rows it returns by fingerprint, so the two must be the same string.
 */
export function logFingerprint(entry: LogEntry): string {
  if (entry.fingerprint) return entry.fingerprint.toWellFormed();
  return hash('sha1', `${entry.level}\u0000${entry.category ?? ''}\u0000${entry.message}`);
}

export interface Group {
  fingerprint: string;
  /** groupKey of the scope and fingerprint: where the group's row is, unless it collided (group-key.ts). */
  key: number;
  last: LogEntry;
  count: number;
  firstSeen: string;
  lastSeen: string;
  /** The batch's entries of this group, each with its time: its lines (store-lines.ts). */
  lines: Array<[LogEntry, string]>;
  /** The group row's id, once written. */
  id?: string;
}

/** Folds a batch into `groups`, one group per fingerprint, so a repeated line costs one upsert. */
export function foldBatch(
  scope: Scope,
  groups: Map<string, Group>,
  entries: readonly LogEntry[],
  receivedAt: string,
): void {
  for (const entry of entries) {
    const fingerprint = logFingerprint(entry);
    const at = entry.timestamp ? new Date(entry.timestamp).toISOString() : receivedAt;
    const group = groups.get(fingerprint);
    if (!group) {
      const key = recentGroupKey(scope.projectId, scope.environment, fingerprint);
      groups.set(fingerprint, {
        fingerprint,
        key,
        last: entry,
        count: 1,
        firstSeen: at,
        lastSeen: at,
        lines: [[entry, at]],
      });
    } else {
      group.lines.push([entry, at]);
      group.last = entry;
      group.count++;
      if (at < group.firstSeen) group.firstSeen = at;
      if (at > group.lastSeen) group.lastSeen = at;
    }
  }
}

/** The groups in a fixed lock order (by key): two writers touching the same groups never deadlock. */
export function inLockOrder(groups: Map<string, Group>): Group[] {
  return [...groups.values()].sort((a, b) =>
    a.key !== b.key ? a.key - b.key : a.fingerprint < b.fingerprint ? -1 : a.fingerprint > b.fingerprint ? 1 : 0,
  );
}

const COLUMNS = 15;
const INSERT = `INSERT INTO log_groups (id, project_id, environment, fingerprint, fingerprint_key, level, category, source,
    message, data, user_id, app_version, occurrences, first_seen_at, last_seen_at)`;
const ON_KEY = 'ON CONFLICT (fingerprint_key) DO UPDATE SET';
/** The row at the key is this group's: anything else is another group whose key collided. */
const SAME_GROUP = `log_groups.fingerprint = excluded.fingerprint AND log_groups.project_id = excluded.project_id
    AND log_groups.environment = excluded.environment`;
/** What a repeat changes on its group's row: counts add up, the latest entry's fields win. */
const REPEAT = `
    status = CASE WHEN log_groups.status = 'resolved' THEN 'open' ELSE log_groups.status END,
    level = excluded.level,
    category = excluded.category,
    source = excluded.source,
    message = excluded.message,
    data = excluded.data,
    user_id = excluded.user_id,
    app_version = excluded.app_version,
    first_seen_at = CASE WHEN excluded.first_seen_at < log_groups.first_seen_at THEN excluded.first_seen_at ELSE log_groups.first_seen_at END,
    last_seen_at = CASE WHEN excluded.last_seen_at > log_groups.last_seen_at THEN excluded.last_seen_at ELSE log_groups.last_seen_at END`;
const ROW = `(${placeholders(COLUMNS)})`;

/** A statement for a number of rows, built once per number (a batch's chunks take few). */
function byRowCount(build: (rows: number) => string): (rows: number) => string {
  const built = new Map<number, string>();
  return (rows) => {
    let sql = built.get(rows);
    if (sql === undefined) {
      sql = build(rows);
      built.set(rows, sql);
    }
    return sql;
  };
}

/** `VALUES` with `rows` rows of `row`. */
const valuesOf = (row: string, rows: number) => `VALUES ${Array.from({ length: rows }, () => row).join(', ')}`;

/**
 * PostgreSQL's write of a scope's groups: one upsert on the integer key for all of them (groups
 * are unique per key in it, as PostgreSQL requires), the rows sent as one JSON document
 * (`pgGroupRow`), as the lines are (store-lines.ts): a write of 3,200 new groups was 32
 * statements of 1,500 parameters. A key that holds another group is a collision: `occurrences`
 * becomes NULL there, which the NOT NULL column refuses, so the statement stores nothing and the
 * write is done again by writeProbing. Refusing costs nothing on the common path, where a single
 * statement stays the whole write.
 */
const UPSERT_PG = `${INSERT}
  SELECT r->>0, ?, ?, r->>1, CAST(r->>2 AS bigint), r->>3, r->>4, r->>5, r->>6, r->>7, r->>8, r->>9,
    CAST(r->>10 AS integer), r->>11, r->>12
  FROM jsonb_array_elements(CAST(? AS jsonb)) AS r
  ${ON_KEY}
    occurrences = CASE WHEN ${SAME_GROUP} THEN log_groups.occurrences + excluded.occurrences END,${REPEAT}
  RETURNING id, fingerprint`;

/**
 * A text inside the JSON document, well formed as node-postgres sends a text parameter (a lone
 * surrogate becomes U+FFFD; `JSON.stringify` would write an escape PostgreSQL's parser refuses).
 */
const wellFormed = (value: string | undefined): string | null =>
  value === undefined ? null : value.isWellFormed() ? value : value.toWellFormed();

/**
 * A group's row for UPSERT_PG, in INSERT's column order less the scope's two. `data` goes as its
 * JSON text (the column is text: a nested object would come back re-encoded by jsonb).
 */
function pgGroupRow(group: Group): unknown[] {
  const entry = group.last;
  return [
    newId('log'),
    group.fingerprint,
    group.key,
    entry.level,
    wellFormed(entry.category),
    wellFormed(entry.source),
    wellFormed(entry.message),
    entry.data === undefined ? null : JSON.stringify(entry.data),
    wellFormed(entry.userId),
    wellFormed(entry.appVersion),
    group.count,
    group.firstSeen,
    group.lastSeen,
  ];
}

/** One group at one probe key: counted if the key holds this group or is free, else no row back. */
const PROBE_UPSERT = `${INSERT}
  VALUES ${ROW}
  ${ON_KEY}
    occurrences = log_groups.occurrences + excluded.occurrences,${REPEAT}
  WHERE ${SAME_GROUP}
  RETURNING id`;

/** The refusal upsertFor makes on a key collision (PostgreSQL not_null_violation, SQLite CONSTRAINT_NOTNULL). */
function isKeyCollision(error: unknown): boolean {
  const failure = error as { code?: unknown; column?: unknown; errcode?: unknown; message?: unknown } | null;
  if (failure?.code === '23502') return failure.column === 'occurrences';
  return failure?.errcode === 1299 && /log_groups\.occurrences/.test(String(failure.message));
}

/** Appends one group's row of the upsert to `params`. */
function pushGroup(params: SqlValue[], scope: Scope, group: Group, key: number): SqlValue[] {
  params.push(newId('log'), scope.projectId, scope.environment, group.fingerprint, key);
  return pushLatest(params, group);
}

/** What a group's row takes from its batch: the latest entry's fields, then count, first and last seen. */
function pushLatest(params: SqlValue[], group: Group): SqlValue[] {
  const entry = group.last;
  params.push(
    entry.level,
    entry.category ?? null,
    entry.source ?? null,
    entry.message,
    entry.data === undefined ? null : JSON.stringify(entry.data),
    entry.userId ?? null,
    entry.appVersion ?? null,
    group.count,
    group.firstSeen,
    group.lastSeen,
  );
  return params;
}

/** Rows per statement of SQLite's inserts and updates: a batch's own maximum, so the statement shapes stay the same few. */
const ROWS_PER_STATEMENT = 100;

/** Most probes a group may need: each probe meets another group with a chance of groups / 2^53. */
const MAX_PROBES = 64;

/**
 * Writes one scope's groups on PostgreSQL, all or none, with their lines in one transaction.
 * On a key collision, the slow path in one transaction.
 */
export async function writeGroups(db: Database, scope: Scope, groups: Group[]): Promise<void> {
  const rows: unknown[][] = [];
  for (let i = 0; i < groups.length; i++) {
    // Sorted by key: two groups sharing a key are neighbours.
    if (i > 0 && groups[i]!.key === groups[i - 1]!.key) return writeProbing(db, scope, groups);
    rows.push(pgGroupRow(groups[i]!));
  }
  const params = [scope.projectId, scope.environment, JSON.stringify(rows)];
  try {
    // One transaction with the groups' lines: a line is never stored without its group's count.
    await db.transaction(async (tx) => {
      const ids = new Map<string, string>();
      for (const row of await tx.all<{ id: string; fingerprint: string }>(UPSERT_PG, params))
        ids.set(row.fingerprint, row.id);
      for (const group of groups) group.id = ids.get(group.fingerprint);
      await writeLines(tx, db.dialect, scope, linesOf(groups));
    });
  } catch (error) {
    if (!isKeyCollision(error)) throw error;
    await writeProbing(db, scope, groups);
  }
}

/**
 * The collision path: each group on its own, at its first key that holds this group or is free
 * (group-key.ts), all in one transaction. A group that lives at a probe key sends every batch it
 * is in down this path (one statement a group); at the chance of a collision that is a cost
 * paid by almost no database ever, and in exchange the common path needs no read before writing.
 */
async function writeProbing(db: Database, scope: Scope, groups: Group[]): Promise<void> {
  await db.transaction(async (tx) => {
    for (const group of groups) {
      for (let probe = 0; ; probe++) {
        if (probe === MAX_PROBES)
          throw new Error(`log group ${group.fingerprint}: no free key in ${MAX_PROBES} probes`);
        const key = probe === 0 ? group.key : groupKey(scope.projectId, scope.environment, group.fingerprint, probe);
        const rows = await tx.all<{ id: string }>(PROBE_UPSERT, pushGroup([], scope, group, key));
        if (rows.length > 0) {
          group.id = rows[0]!.id;
          break;
        }
      }
    }
    await writeLines(tx, db.dialect, scope, linesOf(groups));
  });
}

/** The written groups' lines (each group has its id by then). */
function linesOf(groups: readonly Group[]): { id: string; lines: Group['lines'] }[] {
  return groups.map((group) => {
    if (group.id === undefined) throw new Error(`log group ${group.fingerprint}: written without an id`);
    return { id: group.id, lines: group.lines };
  });
}

/** New groups on SQLite: a plain append (store-sqlite-keys.ts found their keys free). */
const insertFor = byRowCount((rows) => `${INSERT} ${valuesOf(ROW, rows)}`);

const UPDATE_ROW = `(${placeholders(12)})`;

/**
 * Repeats on SQLite, by rowid, one statement for many groups. A row that is not the group's
 * (a stale pointer, or another group at a colliding key) is left alone and not returned.
 */
const updateFor = byRowCount(
  (rows) => `UPDATE log_groups SET
    occurrences = log_groups.occurrences + v.column10,
    status = CASE WHEN log_groups.status = 'resolved' THEN 'open' ELSE log_groups.status END,
    level = v.column3, category = v.column4, source = v.column5, message = v.column6, data = v.column7,
    user_id = v.column8, app_version = v.column9,
    first_seen_at = CASE WHEN v.column11 < log_groups.first_seen_at THEN v.column11 ELSE log_groups.first_seen_at END,
    last_seen_at = CASE WHEN v.column12 > log_groups.last_seen_at THEN v.column12 ELSE log_groups.last_seen_at END
  FROM (${valuesOf(UPDATE_ROW, rows)}) AS v
  WHERE log_groups.rowid = v.column1 AND log_groups.fingerprint = v.column2
    AND log_groups.project_id = ? AND log_groups.environment = ?
  RETURNING log_groups.rowid AS rid, log_groups.id AS gid`,
);

function pushRepeat(params: SqlValue[], group: Group, rowid: number): void {
  params.push(rowid, group.fingerprint);
  pushLatest(params, group);
}

/** Counts repeats onto their rows; returns the groups whose row was not theirs. */
async function updateRows(tx: Queryable, scope: Scope, found: Array<[Group, number]>): Promise<Group[]> {
  const missed: Group[] = [];
  for (let from = 0; from < found.length; from += ROWS_PER_STATEMENT) {
    const chunk = found.slice(from, from + ROWS_PER_STATEMENT);
    const params: SqlValue[] = [];
    for (const [group, rowid] of chunk) pushRepeat(params, group, rowid);
    params.push(scope.projectId, scope.environment);
    const done = new Map(
      (await tx.all<{ rid: number; gid: string }>(updateFor(chunk.length), params)).map((row) => [row.rid, row.gid]),
    );
    for (const [group, rowid] of chunk) {
      const id = done.get(rowid);
      if (id === undefined) missed.push(group);
      else group.id = id;
    }
  }
  return missed;
}

/**
 * Appends new groups and notes each one's key and rowid. The rowids are not read back
 * (RETURNING cost about an eighth of the insert, measured on node:sqlite with this table): SQLite
 * gives each row of an insert without a rowid the table's largest rowid plus one, so a statement
 * of n rows after `top` ends at `top + n`, and when it does the rows are top + 1 … top + n in
 * order. When it does not (only at the largest rowid there is), they are read back by id.
 */
async function insertRows(tx: Queryable, scope: Scope, groups: Array<[Group, number]>, changes: KeyChanges) {
  for (let from = 0; from < groups.length; from += ROWS_PER_STATEMENT) {
    const chunk = groups.slice(from, from + ROWS_PER_STATEMENT);
    const params: SqlValue[] = [];
    for (const [group, key] of chunk) pushGroup(params, scope, group, key);
    for (let i = 0; i < chunk.length; i++) chunk[i]![0].id = params[i * COLUMNS] as string;
    const { lastInsertRowid } = await tx.run(insertFor(chunk.length), params);
    if (lastInsertRowid === changes.top + chunk.length) {
      for (let i = 0; i < chunk.length; i++) changes.added.push([chunk[i]![1], changes.top + 1 + i]);
      changes.top = lastInsertRowid;
      continue;
    }
    const ids = chunk.map((_, i) => params[i * COLUMNS] as string);
    const rows = await tx.all<{ rid: number; k: number }>(
      `SELECT rowid AS rid, fingerprint_key AS k FROM log_groups WHERE id IN (${placeholders(ids.length)})`,
      ids,
    );
    for (const row of rows) {
      changes.added.push([row.k, row.rid]);
      if (row.rid > changes.top) changes.top = row.rid;
    }
  }
}

/**
 * SQLite's write of one scope's groups, in one transaction: repeats found by key (fresh keys in
 * memory, the filter, log_group_keys) and counted by rowid; new groups appended. Anything out of
 * the ordinary (a key collision, a stale pointer) goes group by group through placeProbing.
 */
export async function writeGroupsSqlite(
  db: Database,
  index: SqliteKeyIndex,
  scope: Scope,
  groups: Group[],
): Promise<void> {
  const changes = await db.transaction(async (tx) => {
    const changes: KeyChanges = { added: [], stale: [], rebuilt: false, top: await index.sync(tx) };
    const found: Array<[Group, number]> = [];
    const toRead: Group[] = [];
    const fresh: Group[] = [];
    for (const group of groups) {
      const rowid = index.freshRow(group.key);
      if (rowid !== undefined) found.push([group, rowid]);
      else if (index.mayBeMerged(group.key)) toRead.push(group);
      else fresh.push(group);
    }
    // Reads nothing when the filter answered for every group.
    const merged = await index.mergedRows(
      tx,
      toRead.map((group) => group.key),
    );
    for (const group of toRead) {
      const rowid = merged.get(group.key);
      if (rowid !== undefined) found.push([group, rowid]);
      else fresh.push(group);
    }
    const slow = await updateRows(tx, scope, found);
    // Two new groups of the batch at one key: the second takes the slow path.
    const taken = new Set<number>();
    const inserts: Array<[Group, number]> = [];
    for (const group of fresh) {
      if (taken.has(group.key)) slow.push(group);
      else {
        taken.add(group.key);
        inserts.push([group, group.key]);
      }
    }
    await insertRows(tx, scope, inserts, changes);
    for (const group of slow) await placeProbing(tx, index, scope, group, changes);
    await writeLines(tx, db.dialect, scope, linesOf(groups));
    return changes;
  });
  index.apply(changes);
}

/**
 * One group at its first key that holds it or is free (group-key.ts), every pointer checked
 * against the row it names.
 */
async function placeProbing(
  tx: Queryable,
  index: SqliteKeyIndex,
  scope: Scope,
  group: Group,
  changes: KeyChanges,
): Promise<void> {
  /** This transaction's new rows: in memory only once it commits. */
  const written = new Map(changes.added);
  let probe = 0;
  /** Set once the key's pointer in memory proved stale: then only log_group_keys can tell. */
  let tableOnly = false;
  while (probe < MAX_PROBES) {
    const key = probe === 0 ? group.key : groupKey(scope.projectId, scope.environment, group.fingerprint, probe);
    // After a rebuild every older row is in log_group_keys, and memory knows nothing yet.
    const inMemory = tableOnly ? undefined : (written.get(key) ?? (changes.rebuilt ? undefined : index.freshRow(key)));
    const rowid = inMemory ?? (await index.mergedRows(tx, [key])).get(key);
    const row =
      rowid === undefined
        ? undefined
        : await tx.get<{ k: number; project_id: string; environment: string; fingerprint: string }>(
            'SELECT fingerprint_key AS k, project_id, environment, fingerprint FROM log_groups WHERE rowid = ?',
            [rowid],
          );
    if (rowid === undefined) {
      await insertRows(tx, scope, [[group, key]], changes);
      return;
    }
    if (row?.k !== key) {
      // A pointer to a row that is gone (its project was deleted) or is another row now.
      if (inMemory !== undefined) {
        changes.stale.push(key);
        written.delete(key);
        tableOnly = true;
      } else {
        // In log_group_keys, where deletions take their keys along: the rows were renumbered
        // (VACUUM). Every key again from log_groups, then this group from its first probe.
        await index.rebuild(tx);
        changes.rebuilt = true;
        written.clear();
        tableOnly = false;
        probe = 0;
      }
      continue;
    }
    tableOnly = false;
    if (
      row.project_id === scope.projectId &&
      row.environment === scope.environment &&
      row.fingerprint === group.fingerprint
    ) {
      await updateRows(tx, scope, [[group, rowid]]);
      return;
    }
    probe++; // another group holds this key
  }
  throw new Error(`log group ${group.fingerprint}: no free key in ${MAX_PROBES} probes`);
}
