/**
 * Version checks counted in memory per project, release and hour, and written by the
 * release-health worker in one transaction every `RELEASE_HEALTH_FLUSH_MS` (and on close): the
 * public GET /version-check only adds to a Map, never waits for the database. A process that
 * dies loses at most one interval of counts; several processes each write their own.
 */
import type { Database } from '../../db/database.ts';
import { hourOf } from './parse.ts';
import { addVersionChecks } from './store-checks.ts';

/** Distinct (project, release, hour) entries kept before a flush is forced on the next tick. */
const MAX_ENTRIES = 10_000;

interface Entry {
  projectId: string;
  release: string;
  hour: string;
  checks: number;
}

const tallies = new WeakMap<Database, Map<string, Entry>>();

function tallyOf(db: Database): Map<string, Entry> {
  let tally = tallies.get(db);
  if (!tally) {
    tally = new Map();
    tallies.set(db, tally);
  }
  return tally;
}

/** Counts one version check of a known release; `false` when the tally is full (dropped). */
export function countVersionCheck(db: Database, projectId: string, release: string, now = new Date()): boolean {
  const tally = tallyOf(db);
  const hour = hourOf(now.toISOString());
  const key = `${projectId}\u0000${release}\u0000${hour}`;
  const entry = tally.get(key);
  if (entry) {
    entry.checks++;
    return true;
  }
  if (tally.size >= MAX_ENTRIES) return false;
  tally.set(key, { projectId, release, hour, checks: 1 });
  return true;
}

/** The flush writing now, per database: counts taken from the tally but not yet committed. */
const writing = new WeakMap<Database, Promise<void>>();

/**
 * Writes what this process counted since the last flush. A flush already under way (the
 * worker's) is waited for first: it has emptied the tally, so without the wait a read flushing
 * before it reads found nothing to write and read before those counts were committed (the
 * release-health route test saw 0 version checks on PostgreSQL under load).
 */
export async function flushVersionChecks(db: Database): Promise<void> {
  for (let running = writing.get(db); running; running = writing.get(db)) await running;
  const tally = tallies.get(db);
  if (!tally || tally.size === 0) return;
  const entries = [...tally.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, entry]) => entry);
  tally.clear();
  const write = writeChecks(db, entries);
  writing.set(db, write);
  try {
    await write;
  } finally {
    if (writing.get(db) === write) writing.delete(db);
  }
}

/** The entries in one transaction, else each alone; what still fails is dropped (never rejects). */
async function writeChecks(db: Database, entries: Entry[]): Promise<void> {
  try {
    await db.transaction((tx) => addVersionChecks(tx, entries), { durability: 'relaxed' });
  } catch {
    // One bad entry (a project deleted since) must not hold the others back: each alone, and
    // what still fails is dropped.
    for (const entry of entries) {
      await db.transaction((tx) => addVersionChecks(tx, [entry]), { durability: 'relaxed' }).catch(() => undefined);
    }
  }
}
