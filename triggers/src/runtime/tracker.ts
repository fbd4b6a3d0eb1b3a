/** Keeps track of background work (dispatches, deliveries, `waitUntil` promises) so `stop()` can drain it. */
export class Tracker {
  private readonly pending = new Set<Promise<unknown>>();

  /** Tracks `promise` until it settles. Rejections must be handled by the caller. */
  track<T>(promise: Promise<T>): Promise<T> {
    // One reaction that forgets the promise it settles (no second `then` per tracked promise).
    const settled: Promise<void> = promise.then(
      () => void this.pending.delete(settled),
      () => void this.pending.delete(settled),
    );
    this.pending.add(settled);
    return promise;
  }

  get size(): number {
    return this.pending.size;
  }

  /**
   * Waits until nothing is pending, including work started while waiting.
   * Resolves `true` when drained, `false` when `deadlineMs` (epoch ms) passed first.
   */
  async settle(deadlineMs = Number.POSITIVE_INFINITY): Promise<boolean> {
    while (this.pending.size > 0) {
      const remaining = deadlineMs - Date.now();
      if (remaining <= 0) return false;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const expired = Number.isFinite(remaining)
        ? new Promise<'expired'>((resolve) => {
            timer = setTimeout(() => resolve('expired'), remaining);
          })
        : new Promise<never>(() => {});
      const outcome = await Promise.race([Promise.all([...this.pending]), expired]);
      clearTimeout(timer);
      if (outcome === 'expired') return this.pending.size === 0;
    }
    return true;
  }
}
