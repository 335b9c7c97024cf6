/**
 * Where SQLite finds a log group's row by its key (group-key.ts), without a random write per new
 * group.
 *
 * Why: a unique index on a hash key takes each new group at a random place. SQLite writes a
 * whole page (4 KiB) to its WAL for every page a commit changed, and copies it back at the
 * checkpoint; a commit of 3,200 new groups changed as many leaves of that index, nearly one page
 * for each group, for 8 bytes of key. That was most of what an all-new log line cost. (PostgreSQL
 * logs the tuple, not the page, and keeps its unique index: migration 202612030100.)
 *
 * How: a group's key is found in one of three places, in this order:
 *
 * - `fresh`, in memory: key → rowid of the groups written since their keys last moved to
 *   log_group_keys. It is read again from the database at start, and whenever the table's last
 *   rowid is not the one this process left (another writer, or a deletion).
 * - a Bloom filter of log_group_keys (key-filter.ts): a key it does not hold is certainly not
 *   there, so a batch of new groups reads nothing at all;
 * - log_group_keys, the table (key → rowid).
 *
 * Once SWEEP_AT keys are fresh they move to log_group_keys in key order, SWEEP_STEP keys per
 * transaction: a step's keys are neighbours, so each page of the table it changes takes many of
 * them, and a sweep writes each page at most once. The cost per group falls with the number of
 * groups a sweep carries (the table's pages over SWEEP_AT) instead of one page each; a step is
 * bounded, so no sweep holds the writer for long.
 *
 * A pointer is checked wherever it is used (the row must hold the key), because rowids move:
 * a deleted group's rowid can be taken again, and VACUUM renumbers every row. A stale fresh
 * pointer is dropped; a stale pointer in the table means the table is rebuilt from log_groups.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { placeholders, type Database, type Queryable } from '../../db/database.ts';
import { GrowingKeyFilter } from './key-filter.ts';
import { KeyMap } from './key-map.ts';

/** Fresh keys that start a sweep. Memory: at most 32 bytes each (key-map.ts). */
const SWEEP_AT = 400_000;
/** Keys moved per sweep transaction. */
const SWEEP_STEP = 10_000;
/** Keys per statement: a sweep step's inserts, and reads of log_group_keys. */
const KEYS_PER_STATEMENT = 500;
/**
 * Keys read per turn while the filter is built: a few milliseconds of the loop each. At 3,000,000
 * groups (issue 37's soak) 50,000 held it about 50 ms a turn, and 10,000 still 26–63 ms under the
 * soak's load on a slower host (each statement timed in the server).
 */
const FILTER_CHUNK = 2_000;

/**
 * Groups read per statement when a write first learns the fresh keys (sync); the transaction lets
 * the loop turn between two. Each group is a probe of log_group_keys: 2,500 a statement took 27–76
 * ms under the soak at 3,000,000 groups, where up to SWEEP_AT keys are fresh after a start.
 */
const SYNC_CHUNK = 500;

/** What a write learned about keys; applied once its transaction has committed. */
export interface KeyChanges {
  /** Rows written at new keys: [key, rowid]. */
  added: Array<[number, number]>;
  /** Fresh keys whose row was gone or another row. */
  stale: number[];
  /** log_group_keys was rebuilt from log_groups: read everything again. */
  rebuilt: boolean;
  /** max(rowid) of log_groups after the write. */
  top: number;
}

interface Sweep {
  /** The fresh keys when the sweep began, in order. */
  keys: Float64Array;
  next: number;
  /** The table's last rowid when the sweep began: every row up to it is merged at the end. */
  through: number;
}

/**
 * A background step that failed. Nothing is lost by one (keys stay in memory and the table is
 * read instead of the filter) and the step runs again after the next write, so it is a warning.
 */
export function reportKeyIndexError(error: unknown): void {
  process.emitWarning(error instanceof Error ? error : new Error(String(error)), 'LogKeyIndexWarning');
}

export class SqliteKeyIndex {
  private fresh = new KeyMap();
  /** max(rowid) of log_groups as this process left it; undefined until read. */
  private top: number | undefined;
  private filter: GrowingKeyFilter | undefined;
  /** The filter while it is filled from the table (keys swept meanwhile go in too). */
  private building: GrowingKeyFilter | undefined;
  /** Moves on every rebuild, so a filter build that began before one is thrown away. */
  private generation = 0;
  private sweep: Sweep | undefined;

  /**
   * In a write transaction, before any lookup: `fresh` as the database now has it. Returns the
   * table's last rowid.
   */
  async sync(tx: Queryable): Promise<number> {
    const top = (await tx.get<{ top: number | null }>('SELECT max(rowid) AS top FROM log_groups'))?.top ?? 0;
    if (top === this.top) return top;
    const through = (await tx.get<{ through: number }>('SELECT merged_through AS through FROM log_group_key_sweeps'))
      ?.through;
    this.fresh = new KeyMap();
    // In ranges of rowids, so that the transaction lets the event loop turn between two (sqlite.ts):
    // the first write after a start reads up to SWEEP_AT keys, 0.44 s in one statement at 100,000.
    for (let from = through ?? 0; from < top; from += SYNC_CHUNK) {
      const rows = await tx.all<{ rid: number; k: number }>(
        `SELECT g.rowid AS rid, g.fingerprint_key AS k FROM log_groups g WHERE g.rowid > ? AND g.rowid <= ?
         AND NOT EXISTS (SELECT 1 FROM log_group_keys m WHERE m.key = g.fingerprint_key AND m.group_rowid = g.rowid)`,
        [from, from + SYNC_CHUNK],
      );
      for (const row of rows) this.fresh.set(row.k, row.rid);
    }
    this.sweep = undefined;
    // Not this process's first read: someone else wrote, and may have moved keys the filter
    // does not know of. A filter may say "maybe" wrongly, never "no": build it again.
    if (this.top !== undefined) this.forgetFilter();
    this.top = top;
    return top;
  }

  freshRow(key: number): number | undefined {
    return this.fresh.get(key);
  }

  /** False when the key is certainly not in log_group_keys; true while the filter is not built. */
  mayBeMerged(key: number): boolean {
    return this.filter?.mayHold(key) ?? true;
  }

  /** The rows log_group_keys points at for these keys (no read for none). */
  async mergedRows(tx: Queryable, keys: readonly number[]): Promise<Map<number, number>> {
    const rows = new Map<number, number>();
    for (let from = 0; from < keys.length; from += KEYS_PER_STATEMENT) {
      const chunk = keys.slice(from, from + KEYS_PER_STATEMENT);
      const found = await tx.all<{ k: number; rid: number }>(
        `SELECT key AS k, group_rowid AS rid FROM log_group_keys WHERE key IN (${placeholders(chunk.length)})`,
        chunk,
      );
      for (const row of found) rows.set(row.k, row.rid);
    }
    return rows;
  }

  /** After VACUUM (pointers to other rows): every key again from log_groups, nothing fresh. */
  async rebuild(tx: Queryable): Promise<void> {
    await tx.run('DELETE FROM log_group_keys');
    await tx.run(
      'INSERT INTO log_group_keys (key, group_rowid) SELECT fingerprint_key, rowid FROM log_groups ORDER BY fingerprint_key',
    );
    await tx.run('UPDATE log_group_key_sweeps SET merged_through = (SELECT coalesce(max(rowid), 0) FROM log_groups)');
  }

  /** A committed write's changes. */
  apply(changes: KeyChanges): void {
    if (changes.rebuilt) {
      this.fresh.clear();
      this.top = undefined;
      this.sweep = undefined;
      this.forgetFilter();
      return;
    }
    for (const key of changes.stale) this.fresh.delete(key);
    for (const [key, rowid] of changes.added) this.fresh.set(key, rowid);
    this.top = changes.top;
  }

  private forgetFilter(): void {
    this.filter = undefined;
    this.building = undefined;
    this.generation++;
  }

  /** Keys held in memory, not yet in log_group_keys. */
  get freshKeys(): number {
    return this.fresh.size;
  }

  /** Whether a sweep is under way (its next step is due at the next maintain). */
  get sweeping(): boolean {
    return this.sweep !== undefined;
  }

  /**
   * Between writes: one step of the sweep when one is due, and the filter built when missing.
   * `everyKey`: a sweep starts whatever the number of fresh keys (at rest, http/at-rest.ts: the map
   * of up to SWEEP_AT keys, 16 MB, is what an idle process need not hold).
   * Errors are the caller's to report; nothing here is lost by one (the keys stay fresh).
   */
  async maintain(db: Database, everyKey = false): Promise<void> {
    // Not awaited (it spans turns), so its failure (the database closing under it) is reported here.
    if (!this.filter && !this.building) this.buildFilter(db).catch(reportKeyIndexError);
    if (!this.sweep && this.fresh.size >= (everyKey ? 1 : SWEEP_AT) && this.top !== undefined)
      this.sweep = { keys: this.fresh.sortedKeys(), next: 0, through: this.top };
    if (this.sweep) await this.sweepStep(db, this.sweep);
  }

  private async sweepStep(db: Database, sweep: Sweep): Promise<void> {
    const step = sweep.keys.subarray(sweep.next, sweep.next + SWEEP_STEP);
    const last = sweep.next + step.length >= sweep.keys.length;
    const moved = await db.transaction(async (tx) => {
      await this.sync(tx);
      if (this.sweep !== sweep) return undefined; // the table moved under us: the next sweep starts over
      // Each key with the row it has now (a key dropped as stale since is not moved).
      const pairs: Array<[number, number]> = [];
      for (const key of step) {
        const rowid = this.fresh.get(key);
        if (rowid !== undefined) pairs.push([key, rowid]);
      }
      for (let from = 0; from < pairs.length; from += KEYS_PER_STATEMENT) {
        const chunk = pairs.slice(from, from + KEYS_PER_STATEMENT);
        // A key already there points at this group's old rowid (rows renumbered since, and the
        // group read back as fresh, whose row was checked): the fresh pointer is the right one.
        await tx.run(
          `INSERT INTO log_group_keys (key, group_rowid) VALUES ${chunk.map(() => '(?, ?)').join(', ')}
           ON CONFLICT (key) DO UPDATE SET group_rowid = excluded.group_rowid`,
          chunk.flat(),
        );
      }
      if (last) await tx.run('UPDATE log_group_key_sweeps SET merged_through = ?', [sweep.through]);
      return pairs;
    });
    if (!moved || this.sweep !== sweep) return;
    for (const [key, rowid] of moved) {
      if (this.fresh.get(key) === rowid) this.fresh.delete(key);
      this.filter?.add(key);
      this.building?.add(key);
    }
    sweep.next += step.length;
    if (!last) return;
    this.sweep = undefined;
    // The table grew to hold SWEEP_AT keys; what is left (written meanwhile) needs a fraction of it.
    this.fresh.compact();
  }

  /**
   * Fills the filter from log_group_keys a chunk per turn (at start, and after a rebuild or
   * another writer); lookups read the table meanwhile. It then grows with the sweeps.
   */
  private async buildFilter(db: Database): Promise<void> {
    const generation = this.generation;
    // The groups' largest rowid bounds the keys (each key names a group) and is read from the end of
    // the table's b-tree, where count(*) walked every key in one statement on the loop.
    const keysAtMost = (await db.get<{ n: number | null }>('SELECT max(rowid) AS n FROM log_groups'))?.n ?? 0;
    if (generation !== this.generation || this.building) return;
    const filter = new GrowingKeyFilter(Math.max(keysAtMost * 2, SWEEP_AT * 4));
    this.building = filter;
    try {
      let after = Number.MIN_SAFE_INTEGER;
      for (;;) {
        const keys = await db.all<{ k: number }>(
          'SELECT key AS k FROM log_group_keys WHERE key > ? ORDER BY key LIMIT ?',
          [after, FILTER_CHUNK],
        );
        if (generation !== this.generation) return;
        for (const { k } of keys) filter.add(k);
        if (keys.length < FILTER_CHUNK) break;
        after = keys[keys.length - 1]!.k;
        await nextTurn();
      }
      this.filter = filter;
    } finally {
      if (this.building === filter) this.building = undefined;
    }
  }
}
