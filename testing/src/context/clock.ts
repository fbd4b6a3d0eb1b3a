/**
 * `ctx.clock`: the fake clock of a test context. The default app's auth runs on it, `createApp` gets it as
 * `tools.clock` for the app's own `createAuth({ clock })`, and a trigger runtime built with `createTestRuntime`
 * moves with it. Nothing waits in real time.
 * @module
 */
import type { AuthClock } from '@framework/auth';
import { parseDuration, type Duration } from '@framework/trigger';

/** A trigger runtime on a fake clock (`createTestRuntime`): what the context clock drives. */
export interface ClockedRuntime {
  now(): number;
  advanceTime(duration: number): Promise<void>;
}

/**
 * A clock that moves only when a test moves it. `now()` answers ms since the epoch, as `Date.now()` does.
 * @example
 * ```ts
 * const link = ctx.mail.link({ to: 'ada@example.com', kind: 'magic-link' });
 * await ctx.clock.advance('25h');
 * expect((await ctx.fetch(link)).status).toBe(303); // to the error page: the link expired
 * ```
 */
export interface TestClock extends AuthClock {
  /** The fake time, in ms since the epoch. */
  now(): number;
  /**
   * Moves the clock forward by `by` (`'25h'`, `'30s'`, `'1d'`, or ms). The auth sees the new time at once; the
   * promise settles once a trigger runtime of the context (`createTestRuntime`) has fired every timer on the way.
   * @throws RangeError for a negative or non-finite amount (the clock never goes back by `advance`).
   */
  advance(by: Duration | number): Promise<void>;
  /**
   * Sets the clock to `date` (a `Date`, ms since the epoch or an ISO string). Forward, a trigger runtime of the
   * context is advanced with it; backward, only the auth's time moves (a trigger runtime cannot go back).
   * @throws RangeError for an invalid date.
   */
  set(date: Date | number | string): Promise<void>;
}

/** The context's clock, plus the hook that ties a trigger runtime to it. @internal */
export interface ContextClock extends TestClock {
  /** Drives `runtime` from now on, starting from the runtime's time (the clock takes it). */
  drive(runtime: ClockedRuntime): void;
}

const toMs = (date: Date | number | string): number => {
  const ms = date instanceof Date ? date.getTime() : typeof date === 'number' ? date : Date.parse(date);
  if (!Number.isFinite(ms)) throw new RangeError(`clock.set: not a valid date: ${String(date)}`);
  return ms;
};

/**
 * Creates a fake clock that starts at `start` (default: the real time when called).
 * @example
 * ```ts
 * const clock = createTestClock(new Date('2030-01-01T00:00:00Z'));
 * const auth = createAuth({ adapter, clock, providers: [] });
 * await clock.advance('1h');
 * ```
 */
export function createTestClock(start: Date | number | string = Date.now()): ContextClock {
  let now = toMs(start);
  let runtime: ClockedRuntime | undefined;
  // Advances of the runtime, one after the other (a test may move the clock twice without awaiting).
  let chain: Promise<void> = Promise.resolve();
  const follow = (ms: number): Promise<void> => {
    if (!runtime || ms <= 0) return chain;
    const driven = runtime;
    chain = chain.then(() => driven.advanceTime(ms));
    return chain;
  };
  return {
    now: () => now,
    advance(by) {
      const ms = typeof by === 'number' ? by : parseDuration(by, 'clock.advance');
      if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`clock.advance: expected a duration ≥ 0, got ${ms}`);
      now += ms;
      return follow(ms);
    },
    set(date) {
      const target = toMs(date);
      const ms = target - now;
      now = target;
      return follow(ms);
    },
    drive(next) {
      runtime = next;
      now = next.now();
    },
  };
}
