/**
 * A clock that moves only when told to: the time source of `createTestRuntime`.
 *
 * @module
 */
import type { EngineClock, Timer, TimerKind } from './clock.js';

/** A {@link EngineClock} whose time a test sets; its timers fire only from {@link FakeClock.fireNext}. */
export interface FakeClock extends EngineClock {
  timer(at: number, fn: () => void, keepAlive: boolean, kind?: TimerKind): Timer;
  /**
   * When the earliest pending timer is due (epoch ms), or `undefined` when none
   * is pending; with `kind`, among the timers of that kind only.
   */
  nextDue(kind?: TimerKind): number | undefined;
  /**
   * Fires the earliest pending timer due at or before `limit`, first moving the
   * time to its due time (never backwards). Returns `false` when none is due.
   */
  fireNext(limit: number): boolean;
  /** Moves the time forward to `time` (epoch ms) without firing anything. */
  moveTo(time: number): void;
  /** Pending timers. */
  readonly pending: number;
}

interface Entry {
  at: number;
  seq: number;
  kind: TimerKind;
  fn: () => void;
}

/**
 * **Test only.** A fake clock starting at `start` (default `Date.now()`).
 * Timers fire in due order (equal due times in creation order).
 *
 * @example
 * ```ts
 * const clock = fakeClock(Date.UTC(2025, 0, 1));
 * clock.timer(clock.now().getTime() + 1_000, () => console.log('due'), false);
 * clock.fireNext(Number.POSITIVE_INFINITY); // logs 'due'; clock.now() is one second later
 * ```
 */
export function fakeClock(start: number | Date = Date.now()): FakeClock {
  let now = typeof start === 'number' ? start : start.getTime();
  let seq = 0;
  const entries = new Set<Entry>();
  const earliest = (kind?: TimerKind): Entry | undefined => {
    let best: Entry | undefined;
    for (const entry of entries) {
      if (kind !== undefined && entry.kind !== kind) continue;
      if (!best || entry.at < best.at || (entry.at === best.at && entry.seq < best.seq)) best = entry;
    }
    return best;
  };
  return {
    now: () => new Date(now),
    delayUntil: (time) => Math.max(0, time.getTime() - now),
    timer(at, fn, _keepAlive, kind = 'work') {
      const entry: Entry = { at, seq: seq++, kind, fn };
      entries.add(entry);
      return { cancel: () => void entries.delete(entry) };
    },
    nextDue: (kind) => earliest(kind)?.at,
    fireNext(limit) {
      const entry = earliest();
      if (!entry || entry.at > limit) return false;
      entries.delete(entry);
      now = Math.max(now, entry.at);
      entry.fn();
      return true;
    },
    moveTo(time) {
      now = Math.max(now, time);
    },
    get pending() {
      return entries.size;
    },
  };
}
