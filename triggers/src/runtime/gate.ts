/**
 * Concurrency control of one trigger in one process: at most `limit` runs at
 * once, and runs that share a key one after another, in arrival order.
 */
export class Gate {
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  /** Per key, the promise that settles when the last queued run of the key is done. */
  private readonly keys = new Map<string, Promise<void>>();

  constructor(private readonly limit: number) {}

  /** Runs `fn` when a slot (and the key, when given) is free. */
  async run<T>(key: string | undefined, fn: () => Promise<T>): Promise<T> {
    if (key === undefined) return this.withSlot(fn);
    const previous = this.keys.get(key) ?? Promise.resolve();
    let done!: () => void;
    const mine = new Promise<void>((resolve) => (done = resolve));
    const tail = previous.then(() => mine);
    this.keys.set(key, tail);
    await previous;
    try {
      return await this.withSlot(fn);
    } finally {
      done();
      if (this.keys.get(key) === tail) this.keys.delete(key);
    }
  }

  private async withSlot<T>(fn: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active++;
    try {
      return await fn();
    } finally {
      const next = this.waiting.shift();
      // The slot passes straight to the next waiter.
      if (next) next();
      else this.active--;
    }
  }
}
