/**
 * A background job that runs a pass now and then again every `intervalMs` after the previous
 * pass ended (so passes never overlap), until stopped; the pass decides what to do and asks
 * `stopping` to end early. The resources' background workers extend PollingWorker (below); the
 * quota meter holds a Poller of its own.
 */
import { setImmediate as nextTurn, setTimeout as pause } from 'node:timers/promises';

export interface PollerLog {
  error(details: { err: unknown }, message: string): void;
}

export interface PollerOptions {
  /** Milliseconds between passes; 0 never runs a pass. */
  intervalMs: number;
  /** Named in the log line of a failed pass. */
  name: string;
  log: PollerLog;
  runPass: () => Promise<unknown>;
}

export class Poller {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private pass: Promise<unknown> | undefined;
  private stopped = false;
  private readonly options: PollerOptions;

  constructor(options: PollerOptions) {
    this.options = options;
  }

  /** True once stop() was called: a pass under way should end at its next safe point. */
  get stopping(): boolean {
    return this.stopped;
  }

  start(): void {
    if (this.options.intervalMs === 0) return;
    this.stopped = false;
    this.schedule(0);
  }

  /** Stops polling and waits for the pass under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.pass;
  }

  private schedule(delay: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.pass = this.options
        .runPass()
        .catch((error: unknown) => this.options.log.error({ err: error }, `${this.options.name}: pass failed`))
        .finally(() => {
          this.pass = undefined;
          this.schedule(this.options.intervalMs);
        });
    }, delay);
    // A poll never keeps the process alive on its own.
    if (typeof this.timer === 'object' && 'unref' in this.timer) this.timer.unref();
  }
}

/**
 * A background worker that polls: it names itself, its interval and its log, and writes the pass.
 * start, stop and `stopping` (for a pass to end at its next safe point) come from here, so the
 * workers of every resource share one lifecycle instead of each wrapping a Poller by hand.
 */
export abstract class PollingWorker {
  readonly #poller: Poller;

  constructor(options: { intervalMs: number; name: string; log: PollerLog }) {
    this.#poller = new Poller({ ...options, runPass: () => this.runPass() });
  }

  /** One pass over the work; passes never overlap. */
  abstract runPass(): Promise<unknown>;

  /**
   * Between two batches of a pass: one turn of the event loop. A batch's statements run on the
   * loop (node:sqlite is synchronous), and awaiting them alone chains the next batch in the same
   * turn, so a pass of many batches held the loop for all of them at once (the lines worker's
   * first pass after a restart: 0.6 s of deletes on SQLite, `npm run loop-delay`). Requests that
   * arrived meanwhile are served before the next batch.
   */
  protected async betweenBatches(): Promise<void> {
    await nextTurn();
  }

  /**
   * Runs `batch` again while it did a whole `size` (so more may be left) and the worker is not
   * stopping, letting the loop turn after each one, the last too, since the caller's next batch
   * may follow at once (or pausing `pauseMs`, to leave a busy writer room); the sum of what the
   * batches did. The bounded-batch deletes of every worker's retention.
   */
  protected async whileFull(size: number, batch: () => Promise<number>, pauseMs = 0): Promise<number> {
    let done = 0;
    for (let n = size; n === size && !this.stopping; ) {
      done += n = await batch();
      await (pauseMs > 0 ? pause(pauseMs) : this.betweenBatches());
    }
    return done;
  }

  /** True once stop() was called. */
  protected get stopping(): boolean {
    return this.#poller.stopping;
  }

  start(): void {
    this.#poller.start();
  }

  /** Stops polling and waits for the pass under way. */
  stop(): Promise<void> {
    return this.#poller.stop();
  }
}
