/**
 * Engine clocks: where schedules, delays, retries and durable steps read the
 * time. The real clock (`Date.now()` and `setTimeout`) is the default; a
 * scaled clock runs schedules faster in process tests, and a fake clock
 * (`fakeClock`, used by `createTestRuntime`) only moves when a test advances it.
 *
 * @module
 */
import { timerAt, type Timer } from './timers.js';

export type { Timer } from './timers.js';

/** What a timer is for: `'schedule'` (a schedule's next occurrence) or other work. */
export type TimerKind = 'schedule' | 'work';

/** The time source an engine (and a runtime) computes occurrences, delays and wake-ups with. */
export interface EngineClock {
  /** The current time on this clock. */
  now(): Date;
  /** Real milliseconds to wait until `time` on this clock (0 when it has passed). */
  delayUntil(time: Date): number;
  /**
   * Calls `fn` once this clock reaches `at` (epoch ms on this clock). Optional:
   * without it a real timer waits `delayUntil(at)`. A fake clock queues it until
   * the test advances past `at`. `kind` is `'schedule'` for the timer of a
   * schedule's next occurrence (recurring work a test runner does not wait for).
   */
  timer?(at: number, fn: () => void, keepAlive: boolean, kind?: TimerKind): Timer;
}

/** The wall clock. */
export const realClock: EngineClock = {
  now: () => new Date(),
  delayUntil: (time) => Math.max(0, time.getTime() - Date.now()),
};

/** Epoch ms on `clock`. */
export function clockNow(clock: EngineClock): number {
  return clock.now().getTime();
}

/** Calls `fn` when `clock` reaches `at` (epoch ms on that clock). */
export function clockTimer(
  clock: EngineClock,
  at: number,
  fn: () => void,
  keepAlive: boolean,
  kind: TimerKind = 'work',
): Timer {
  if (clock.timer) return clock.timer(at, fn, keepAlive, kind);
  return timerAt(Date.now() + clock.delayUntil(new Date(at)), fn, keepAlive);
}

/** Resolves `true` after `ms` on `clock`, or `false` as soon as `signal` aborts. */
export function clockSleep(clock: EngineClock, ms: number, signal?: AbortSignal): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = () => {
      timer.cancel();
      resolve(false);
    };
    const timer = clockTimer(
      clock,
      clockNow(clock) + ms,
      () => {
        signal?.removeEventListener('abort', onAbort);
        resolve(true);
      },
      true,
    );
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * **Test only.** A clock that starts at `epoch` (epoch ms, default now) and
 * runs `scale` times faster than real time, so a one-minute cron fires every
 * second at `scale: 60`. Processes that share a queue must share `epoch` and
 * `scale` to agree on occurrences.
 *
 * @example
 * ```ts
 * const engine = bullmqEngine({ connection: REDIS_URL, clock: scaledClock({ scale: 60, epoch }) });
 * ```
 */
export function scaledClock(options: { scale: number; epoch?: number }): EngineClock {
  const { scale } = options;
  if (!(scale > 0) || !Number.isFinite(scale))
    throw new RangeError(`scaledClock: scale must be a positive number, got ${scale}`);
  const epoch = options.epoch ?? Date.now();
  return {
    now: () => new Date(epoch + (Date.now() - epoch) * scale),
    delayUntil: (time) => Math.max(0, Math.ceil((time.getTime() - epoch) / scale + epoch - Date.now())),
  };
}
