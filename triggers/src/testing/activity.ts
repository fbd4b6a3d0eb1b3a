/** Counts handler runs in progress, so a test driver can wait for the work a timer started. */
export class ActivityCounter {
  private count = 0;
  private changes = 0;
  private waiters: Array<() => void> = [];

  /** Runs `fn`, counted as activity until it settles. */
  async around<T>(fn: () => Promise<T>): Promise<T> {
    this.count += 1;
    this.changes += 1;
    try {
      return await fn();
    } finally {
      this.count -= 1;
      this.changes += 1;
      if (this.count === 0) for (const wake of this.waiters.splice(0)) wake();
    }
  }

  /**
   * Resolves once no counted run is in progress and three turns of the event
   * loop passed without one starting or ending (the engine's in-memory hops
   * between a timer and the handler it starts are promise callbacks).
   */
  async settle(): Promise<void> {
    for (let quiet = 0; quiet < 3;) {
      if (this.count > 0) {
        await new Promise<void>((resolve) => this.waiters.push(resolve));
        quiet = 0;
        continue;
      }
      const before = this.changes;
      await new Promise<void>((resolve) => setImmediate(resolve));
      quiet = this.changes === before && this.count === 0 ? quiet + 1 : 0;
    }
  }
}
