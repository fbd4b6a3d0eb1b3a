/**
 * Concurrency control of one trigger in one process: at most `limit` runs at
 * once, and runs that share a key one after another, in arrival order.
 *
 * A run may hold its slot (and key) past the moment its result is known:
 * `holdUntil(result)` returns a promise the slot waits for, e.g. a handler
 * that outlived its deadline and still executes. Waiters start only once it
 * settles, so the limit counts what really runs, not what was reported.
 */
export class Gate {
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  /** Per key, the promise that settles when the last queued run of the key is done. */
  private readonly keys = new Map<string, Promise<void>>();

  constructor(private readonly limit: number) {}

  /**
   * Runs `fn` when a slot (and the key, when given) is free, and resolves with
   * its result. The slot and key are freed when `fn` settles, or later, when
   * the promise `holdUntil` returns for that result settles.
   */
  run<T>(
    key: string | undefined,
    fn: () => Promise<T>,
    holdUntil?: (result: T) => Promise<unknown> | undefined,
  ): Promise<T> {
    if (key !== undefined) return this.runKeyed(key, fn, holdUntil);
    if (this.active >= this.limit) return this.withSlot(fn, holdUntil).then(({ value }) => value);
    // The common case, a free slot and no key: no async frame nor `{ value, freed }` per run.
    this.active++;
    let running: Promise<T>;
    try {
      running = fn();
    } catch (error) {
      this.release();
      return Promise.reject(error as Error);
    }
    return running.then(
      (value) => {
        const held = holdUntil?.(value);
        if (held) void held.then(this.releaser, this.releaser);
        else this.release();
        return value;
      },
      (error: unknown) => {
        this.release();
        throw error;
      },
    );
  }

  /**
   * Takes a free slot at once for a run without a key, for a caller that gives it back itself with
   * {@link leave}: `false` (nothing taken) when every slot is taken. Saves `run()`'s wrapping promise on the
   * common path.
   */
  tryEnter(): boolean {
    if (this.active >= this.limit) return false;
    this.active++;
    return true;
  }

  /** Gives back a slot {@link tryEnter} took, now, or once `held` settles when it is given. */
  leave(held?: Promise<unknown>): void {
    if (held) void held.then(this.releaser, this.releaser);
    else this.release();
  }

  /** Gives the slot back (bound once, shared by every run that holds its slot past its result). */
  private readonly releaser = () => this.release();

  private async runKeyed<T>(
    key: string,
    fn: () => Promise<T>,
    holdUntil: ((result: T) => Promise<unknown> | undefined) | undefined,
  ): Promise<T> {
    const previous = this.keys.get(key) ?? Promise.resolve();
    let done!: () => void;
    const mine = new Promise<void>((resolve) => (done = resolve));
    const tail = previous.then(() => mine);
    this.keys.set(key, tail);
    await previous;
    const free = () => {
      done();
      if (this.keys.get(key) === tail) this.keys.delete(key);
    };
    try {
      const { value, freed } = await this.withSlot(fn, holdUntil);
      void freed.then(free);
      return value;
    } catch (error) {
      free();
      throw error;
    }
  }

  /** Runs `fn` in a slot; `freed` settles when the slot is given back. */
  private async withSlot<T>(
    fn: () => Promise<T>,
    holdUntil: ((result: T) => Promise<unknown> | undefined) | undefined,
  ): Promise<{ value: T; freed: Promise<void> }> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active++;
    let value: T;
    try {
      value = await fn();
    } catch (error) {
      this.release();
      throw error;
    }
    const held = holdUntil?.(value);
    if (!held) {
      this.release();
      return { value, freed: Promise.resolve() };
    }
    const freed = held.then(
      () => this.release(),
      () => this.release(),
    );
    return { value, freed };
  }

  private release(): void {
    const next = this.waiting.shift();
    // The slot passes straight to the next waiter.
    if (next) next();
    else this.active--;
  }
}
