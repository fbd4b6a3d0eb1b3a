/**
 * Engine clocks: where schedules read the time. The real clock is the
 * default; a scaled clock runs schedules faster in tests.
 *
 * @module
 */

/** The time source an engine computes schedule occurrences with. */
export interface EngineClock {
  /** The current time on this clock. */
  now(): Date;
  /** Real milliseconds to wait until `time` on this clock (0 when it has passed). */
  delayUntil(time: Date): number;
}

/** The wall clock. */
export const realClock: EngineClock = {
  now: () => new Date(),
  delayUntil: (time) => Math.max(0, time.getTime() - Date.now()),
};

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
