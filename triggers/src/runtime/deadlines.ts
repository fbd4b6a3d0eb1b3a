/** An entry of {@link Deadlines}: the list owns these fields and sets them. */
export interface Due<T extends Due<T>> {
  /** `performance.now()` at which the entry expires. */
  dueAt: number;
  earlier: T | undefined;
  later: T | undefined;
  /** Called once when the entry's delay has passed while it was in the list (it is out of the list by then). */
  expire(): void;
}

/**
 * Entries that expire `delayMs` after they are added unless removed first (the runs of one trigger and their
 * timeout), with one timer for all of them rather than one per entry. All share the delay, so the order they
 * were added in is the order they expire in: a doubly linked list through the entries, the timer armed for the
 * first one. Adding and removing an entry is O(1) and creates no timer; under load the timer fires once per
 * `delayMs` (the first entry is usually gone by then, and it is armed again for the new first one). It is
 * cleared when the list empties, so an idle runtime holds no timer. Times are `performance.now()` milliseconds
 * (monotonic); an entry never expires before its delay has passed by that clock.
 */
export class Deadlines<T extends Due<T>> {
  #first: T | undefined = undefined;
  #last: T | undefined = undefined;
  #timer: ReturnType<typeof setTimeout> | undefined = undefined;

  /** @param delayMs Milliseconds from an entry's `add` to its expiry. */
  constructor(readonly delayMs: number) {}

  /** Adds `entry` (not in a list) to expire `delayMs` from now. */
  add(entry: T): void {
    entry.dueAt = performance.now() + this.delayMs;
    entry.earlier = this.#last;
    entry.later = undefined;
    if (this.#last) this.#last.later = entry;
    else this.#first = entry;
    this.#last = entry;
    this.#timer ??= setTimeout(expireDue, this.delayMs, this);
  }

  /** Removes `entry`, which then does not expire (nothing when it is not in the list). */
  remove(entry: T): void {
    const { earlier, later } = entry;
    if (earlier) earlier.later = later;
    else if (this.#first === entry) this.#first = later;
    else return;
    if (later) later.earlier = earlier;
    else this.#last = earlier;
    entry.earlier = undefined;
    entry.later = undefined;
    if (!this.#first && this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
  }

  /** The timer's turn: expires the entries that are due, then arms the timer for the first one left. */
  expireDue(): void {
    this.#timer = undefined;
    const now = performance.now();
    for (let entry = this.#first; entry && entry.dueAt <= now; entry = this.#first) {
      this.remove(entry);
      entry.expire();
    }
    // Node may fire a little before the first entry is due by this clock (its timers count from the event
    // loop's cached time): armed again for the rest, at least 1 ms.
    if (this.#first) this.#timer ??= setTimeout(expireDue, Math.max(1, this.#first.dueAt - now), this);
  }
}

/** The timer callback (a module function and one argument: no closure per arming). */
function expireDue(deadlines: { expireDue(): void }): void {
  deadlines.expireDue();
}
