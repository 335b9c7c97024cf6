/**
 * The claim loop of a durable queue in the database (the follower e-mail outbox, the webhook
 * deliveries): ask whether anything is due (a read, so an idle poll writes nothing), claim a few
 * rows with a lease, handle each, and again until nothing is due or the worker stops. A row is
 * begun only while at least half its lease is left, so its handling ends before another worker
 * may take it over; the rest are handed back. What a claim, a lease and a handling are is the
 * queue's own (its store and worker).
 */
export interface LeasedQueue<Row> {
  /** Milliseconds a claim holds its rows. */
  leaseMs: number;
  /** True once the worker is stopping: nothing more is begun. */
  stopping(): boolean;
  anythingDue(now: string): Promise<boolean>;
  /** Claims due rows until `leaseUntil`; none when another worker took them first. */
  claim(now: string, leaseUntil: string): Promise<Row[]>;
  /** Hands a claimed row back unhandled. */
  release(row: Row, leaseUntil: string): Promise<void>;
  handle(row: Row, leaseUntil: string): Promise<void>;
  /** Handle a claim's rows side by side rather than one after another. */
  concurrent?: boolean;
}

export async function drainDue<Row>(queue: LeasedQueue<Row>): Promise<void> {
  while (!queue.stopping()) {
    const now = new Date();
    if (!(await queue.anythingDue(now.toISOString()))) return;
    const leaseUntil = new Date(now.getTime() + queue.leaseMs).toISOString();
    const claimed = await queue.claim(now.toISOString(), leaseUntil);
    if (claimed.length === 0) return;
    const begin = async (row: Row) => {
      if (queue.stopping() || Date.now() > Date.parse(leaseUntil) - queue.leaseMs / 2) {
        await queue.release(row, leaseUntil);
        return;
      }
      await queue.handle(row, leaseUntil);
    };
    if (queue.concurrent) await Promise.all(claimed.map(begin));
    else for (const row of claimed) await begin(row);
  }
}
