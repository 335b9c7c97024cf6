/**
 * Memory given back while the server rests. A server that answered a burst keeps what the burst
 * grew: memoised responses and reads, SQLite's page caches, the read workers' threads (each a V8
 * isolate and a page cache of its own). None of it is needed while nobody asks, and all of it is
 * rebuilt by the next requests at the cost of a few cold reads. So after `MEMORY_REST_SECONDS`
 * (default 30) without a request, every memo registered here is emptied and the database releases
 * what it holds for speed (`Database.rest`); then one full collection of V8's heap frees what the
 * memos held (an idle process allocates nothing, so no collection would come by itself), and V8
 * and the allocator hand the pages back.
 *
 * Memos register themselves (`releasedAtRest`) through a weak reference: one that is no longer
 * used (an app closed in a test) is forgotten, never kept alive by this list.
 */
import type { Server } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Database } from '../db/database.ts';

export interface ReleasedAtRest {
  /**
   * Forgets everything kept; the next request loads afresh. A promise returned is awaited before
   * the database rests and the heap is collected (work that gives memory back when it ends).
   */
  release(): void | Promise<void> | undefined;
}

const memos = new Set<WeakRef<ReleasedAtRest>>();

export function releasedAtRest<T extends ReleasedAtRest>(memo: T): T {
  memos.add(new WeakRef(memo));
  return memo;
}

let collector: (() => void) | undefined;

/**
 * A full collection of V8's heap. Emptied memos are garbage, but an idle process allocates nothing,
 * so no collection comes to free their pages: they stay resident (measured after the bench's load
 * on SQLite: 533 V8 pages, 136 MB, of 262 MB resident after a minute at rest). V8 exposes `gc`
 * only to contexts made after `--expose-gc` is set; a context made here gets it without the flag
 * on the command line (which would also expose it to the process's own code).
 */
export function collectGarbage(): void {
  if (!collector) {
    setFlagsFromString('--expose-gc');
    collector = runInNewContext('gc') as () => void;
  }
  collector();
}

/** Empties every live memo; settles when the releases that take time have ended. */
export async function releaseMemos(): Promise<void> {
  const settling: Array<Promise<void>> = [];
  for (const ref of memos) {
    const memo = ref.deref();
    if (!memo) {
      memos.delete(ref);
      continue;
    }
    const settled = memo.release();
    if (settled) settling.push(settled);
  }
  await Promise.all(settling);
}

export interface RestWatch {
  /** How many rests have ended since the server started (read by tests). */
  readonly rests: number;
  /** Requests seen, and whether a rest is under way (read by tests, to say why none came). */
  readonly requests: number;
  readonly resting: boolean;
  stop(): void;
}

/**
 * Watches `server` for requests and releases memory once none came for `seconds` (0: never).
 * Checked on a timer that never keeps the process alive, a quarter of the rest period apart, so a
 * rest begins between `seconds` and 1.25 × `seconds` after the last request.
 */
export function watchForRest(server: Server, db: Database, seconds: number): RestWatch {
  let requests = 0;
  let seen = -1;
  let rested = true;
  let rests = 0;
  let resting = false;
  /** A rest has ended and no request has come since: the first one wakes the database. */
  let asleep = false;
  const onRequest = () => {
    requests++;
    if (asleep) {
      asleep = false;
      db.wake?.();
    }
  };
  server.on('request', onRequest);
  const rest = async () => {
    resting = true;
    const requestsBefore = requests;
    try {
      await releaseMemos();
      await db.rest?.();
      // A request that came while the rest ran found the database not yet resting.
      if (requests === requestsBefore) asleep = true;
      else db.wake?.();
      collectGarbage();
    } catch (error) {
      // Nothing is lost by a rest that failed (the database closing under it): the next one tries again.
      process.emitWarning(error instanceof Error ? error : new Error(String(error)), 'RestWarning');
    } finally {
      // Counted once it has ended: what it released is gone by then.
      rests++;
      resting = false;
    }
  };
  let quietSince = Date.now();
  const timer =
    seconds > 0
      ? setInterval(
          () => {
            if (requests !== seen) {
              seen = requests;
              quietSince = Date.now();
              rested = false;
              return;
            }
            if (rested || Date.now() - quietSince < seconds * 1000) return;
            rested = true;
            void rest();
          },
          Math.max(250, (seconds * 1000) / 4),
        )
      : undefined;
  timer?.unref();
  return {
    get rests() {
      return rests;
    },
    get requests() {
      return requests;
    },
    get resting() {
      return resting;
    },
    stop() {
      if (timer) clearInterval(timer);
      server.off('request', onRequest);
    },
  };
}
