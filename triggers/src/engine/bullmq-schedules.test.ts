import { afterEach, describe, expect, it } from 'vitest';
import { serviceAvailable } from '../../../test-support/services.js';
import { defineTrigger } from '../define.js';
import { createTriggerRuntime, type TriggerRuntime } from '../runtime/create.js';
import { bullmqEngine } from './bullmq.js';
import { deletePrefix, REDIS_URL, testPrefix } from './bullmq-test-support.js';
import { scaledClock, type EngineClock } from './clock.js';
import { eventually } from './conformance.js';

// Under CI=true this throws when Redis is down, failing the file.
const redisUp = await serviceAvailable('redis');
const HOUR = 3_600_000;

/** `clock` moved `offsetMs` ahead: a runtime that starts after a downtime of that length. */
function later(clock: EngineClock, offsetMs: number): EngineClock {
  return {
    now: () => new Date(clock.now().getTime() + offsetMs),
    delayUntil: (time) => clock.delayUntil(new Date(time.getTime() - offsetMs)),
  };
}

describe.skipIf(!redisUp)('BullMQ schedules: every and catch-up across instances', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it("catchUp 'all' runs the hours missed while no instance ran, each once, oldest first", async () => {
    const prefix = testPrefix();
    cleanups.push(() => deletePrefix(prefix));
    // One real second is an hour on this clock.
    const clock = scaledClock({ scale: 3_600 });
    const fired: number[] = [];
    const hourly = defineTrigger({
      source: { type: 'scheduled', every: '1h', catchUp: 'all', overlap: 'skip' },
      config: { observability: { metrics: false, tracing: false } },
      handle: (event) => void fired.push(event.scheduledTime.getTime()),
    });
    const runtimeOn = (engineClock: EngineClock): TriggerRuntime => {
      const runtime = createTriggerRuntime({
        name: 'catch-up',
        env: {},
        triggers: { hourly },
        engine: bullmqEngine({ connection: REDIS_URL, prefix, clock: engineClock }),
      });
      cleanups.push(() => runtime.stop({ timeout: '2s' }));
      return runtime;
    };

    const first = runtimeOn(clock);
    await first.start();
    await eventually(() => expect(fired.length).toBeGreaterThanOrEqual(2), 15_000);
    await first.stop({ timeout: '2s' });
    const lastBefore = Math.max(...fired);
    const countBefore = fired.length;
    expect(fired.every((time) => time % HOUR === 0)).toBe(true);

    // Six hours later two instances start at once.
    const shifted = later(clock, 6 * HOUR);
    const [a, b] = [runtimeOn(shifted), runtimeOn(shifted)];
    await Promise.all([a.start(), b.start()]);
    await eventually(() => expect(fired.length - countBefore).toBeGreaterThanOrEqual(6), 15_000);
    await Promise.all([a.stop({ timeout: '2s' }), b.stop({ timeout: '2s' })]);
    const after = fired.slice(countBefore);
    // Hour after hour from the one after the last that fired: none twice, none left out.
    expect(after).toEqual(after.map((_, i) => lastBefore + (i + 1) * HOUR));
  }, 60_000);
});
