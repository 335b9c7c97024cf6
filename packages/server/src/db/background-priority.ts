/**
 * Lowers the calling worker thread's scheduling priority (nice 10), so that on a busy core the
 * event loop's thread runs first (issue 37). The read workers (sqlite-read-worker.ts) exist to keep
 * the management API's long reads off the event loop; on a host with fewer cores than busy
 * threads they still took its time slices. Pinned to one core under the loop-delay soak
 * (packages/bench README, "Event-loop delay"), the public reads served about twice as many
 * requests with the read workers at nice 10 and the loop's median delay halved; with idle cores
 * nothing changes. Their own queries wait longer only while the loop is busy. The checkpoint
 * worker keeps the loop's priority: the writer waits for its tail copy (sqlite-checkpointer.ts).
 *
 * Linux only: there the nice value belongs to a thread and `setpriority(PRIO_PROCESS, 0)` (what
 * `os.setPriority(0, …)` calls) sets the calling thread's. Elsewhere it would lower the whole
 * process, so nothing is done.
 */
import { setPriority } from 'node:os';

export const BACKGROUND_NICE = 10;

export function runInBackground(): void {
  if (process.platform !== 'linux') return;
  try {
    setPriority(0, BACKGROUND_NICE);
  } catch {
    // A sandbox that refuses it: the worker runs at the loop's priority, as before.
  }
}
