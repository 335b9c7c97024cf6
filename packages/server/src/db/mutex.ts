/** A FIFO async mutex: `run` waits for every earlier holder to finish. */
export class Mutex {
  private tail: Promise<void> = Promise.resolve();
  private holders = 0;

  get locked(): boolean {
    return this.holders > 0;
  }

  async run<T>(fn: () => Promise<T>): Promise<T> {
    this.holders++;
    const previous = this.tail;
    let release!: () => void;
    this.tail = new Promise<void>((resolve) => (release = resolve));
    try {
      await previous;
      return await fn();
    } finally {
      this.holders--;
      release();
    }
  }
}
