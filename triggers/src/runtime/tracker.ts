import { WorkList, type Listed } from '../work-list.js';

/** A tracked promise in the tracker's list. */
class Tracked implements Listed<Tracked> {
  previous: Tracked | undefined = undefined;
  next: Tracked | undefined = undefined;
  settled: Promise<void> | undefined = undefined;
}

/**
 * Keeps track of background work (dispatches, deliveries, `waitUntil` promises) so `stop()` can drain it, in a
 * {@link WorkList} (a Set gaining and losing an entry per message kept settled work alive into the old
 * generation).
 */
export class Tracker {
  private readonly pending = new WorkList<Tracked>();

  /** Tracks `promise` until it settles. Rejections must be handled by the caller. */
  track<T>(promise: Promise<T>): Promise<T> {
    const entry = new Tracked();
    this.pending.add(entry);
    // One reaction that forgets the entry it settles (no second `then` per tracked promise).
    entry.settled = promise.then(
      () => this.pending.remove(entry),
      () => this.pending.remove(entry),
    );
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
      const outcome = await Promise.race([Promise.all(this.pending.entries().map((entry) => entry.settled!)), expired]);
      clearTimeout(timer);
      if (outcome === 'expired') return this.pending.size === 0;
    }
    return true;
  }
}
