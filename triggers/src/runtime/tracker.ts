/** A tracked promise in the tracker's list. */
class Tracked {
  previous: Tracked | undefined = undefined;
  next: Tracked | undefined = undefined;
  settled: Promise<void> | undefined = undefined;
}

/**
 * Keeps track of background work (dispatches, deliveries, `waitUntil` promises) so `stop()` can drain it.
 * Pending work is a doubly linked list, not a Set: a Set that gains and loses an entry per message is
 * rehashed over and over, and V8 keeps each replaced table linked to its successor with what it held, which
 * gets work long settled promoted to the old generation (see `CancelRegistry`).
 */
export class Tracker {
  private head: Tracked | undefined = undefined;
  private count = 0;

  /** Tracks `promise` until it settles. Rejections must be handled by the caller. */
  track<T>(promise: Promise<T>): Promise<T> {
    const entry = new Tracked();
    entry.next = this.head;
    if (this.head) this.head.previous = entry;
    this.head = entry;
    this.count++;
    // One reaction that forgets the entry it settles (no second `then` per tracked promise).
    entry.settled = promise.then(
      () => this.forget(entry),
      () => this.forget(entry),
    );
    return promise;
  }

  private forget(entry: Tracked): void {
    const { previous, next } = entry;
    if (previous) previous.next = next;
    else this.head = next;
    if (next) next.previous = previous;
    entry.previous = undefined;
    entry.next = undefined;
    this.count--;
  }

  get size(): number {
    return this.count;
  }

  /** The promises pending now, each settling when its tracked work does. */
  private pending(): Array<Promise<void>> {
    const all: Array<Promise<void>> = [];
    for (let entry = this.head; entry; entry = entry.next) all.push(entry.settled!);
    return all;
  }

  /**
   * Waits until nothing is pending, including work started while waiting.
   * Resolves `true` when drained, `false` when `deadlineMs` (epoch ms) passed first.
   */
  async settle(deadlineMs = Number.POSITIVE_INFINITY): Promise<boolean> {
    while (this.count > 0) {
      const remaining = deadlineMs - Date.now();
      if (remaining <= 0) return false;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const expired = Number.isFinite(remaining)
        ? new Promise<'expired'>((resolve) => {
            timer = setTimeout(() => resolve('expired'), remaining);
          })
        : new Promise<never>(() => {});
      const outcome = await Promise.race([Promise.all(this.pending()), expired]);
      clearTimeout(timer);
      if (outcome === 'expired') return this.count === 0;
    }
    return true;
  }
}
