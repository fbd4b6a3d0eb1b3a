import { describe, expect, it } from 'vitest';
import { defineTrigger } from '../define.js';
import { fakeClock, type FakeClock } from '../engine/fake-clock.js';
import { memoryEngine } from '../engine/memory.js';
import { createTestRuntime } from '../testing/runtime.js';
import type { CatchUpPolicy, LogEntry } from '../types.js';
import { createTriggerRuntime, type TriggerRuntime } from './create.js';

const iso = (date: Date) => date.toISOString();

/** Fires the fake clock's timers up to `until`, letting each occurrence's run finish. */
async function driveTo(clock: FakeClock, runtime: TriggerRuntime, until: number): Promise<void> {
  while (clock.fireNext(until)) {
    await new Promise((resolve) => setImmediate(resolve));
    await runtime.drain();
  }
  clock.moveTo(until);
}

/** An hourly schedule run until 02:10, stopped for five hours, started again on the same engine. */
async function downtime(catchUp: CatchUpPolicy | undefined) {
  const clock = fakeClock(Date.UTC(2025, 0, 1));
  const engine = memoryEngine({ clock });
  const fired: string[] = [];
  const logs: LogEntry[] = [];
  const hourly = defineTrigger({
    source: { type: 'scheduled', cron: '0 * * * *', ...(catchUp ? { catchUp } : {}) },
    handle: (event) => void fired.push(iso(event.scheduledTime)),
  });
  const first = createTriggerRuntime({ env: {}, triggers: { hourly }, engine, clock });
  await first.start();
  await driveTo(clock, first, Date.UTC(2025, 0, 1, 2, 10));
  await first.stop();
  clock.moveTo(Date.UTC(2025, 0, 1, 7, 10));
  const second = createTriggerRuntime({ env: {}, triggers: { hourly }, engine, clock });
  second.onLog((entry) => logs.push(entry));
  await second.start();
  await new Promise((resolve) => setImmediate(resolve));
  await second.drain();
  await driveTo(clock, second, Date.UTC(2025, 0, 1, 8, 0));
  await second.stop();
  return { fired, logs };
}

describe('schedules catch up after downtime (catchUp)', () => {
  const before = ['2025-01-01T01:00:00.000Z', '2025-01-01T02:00:00.000Z'];
  const after = ['2025-01-01T08:00:00.000Z'];

  it("'none' (the default) skips the occurrences missed while stopped", async () => {
    expect((await downtime(undefined)).fired).toEqual([...before, ...after]);
    expect((await downtime('none')).fired).toEqual([...before, ...after]);
  });

  it("'latest' runs the most recent missed occurrence at start", async () => {
    const { fired, logs } = await downtime('latest');
    expect(fired).toEqual([...before, '2025-01-01T07:00:00.000Z', ...after]);
    expect(logs.map((l) => l.message)).toContain(`"hourly" catches up 1 missed occurrence(s) (catchUp: 'latest')`);
  });

  it("'all' runs every missed occurrence, oldest first, before the next one", async () => {
    const { fired } = await downtime('all');
    expect(fired).toEqual([
      ...before,
      '2025-01-01T03:00:00.000Z',
      '2025-01-01T04:00:00.000Z',
      '2025-01-01T05:00:00.000Z',
      '2025-01-01T06:00:00.000Z',
      '2025-01-01T07:00:00.000Z',
      ...after,
    ]);
  });
});

describe('6-field crons and every on the test runtime', () => {
  it('fires a seconds cron and an every schedule at their occurrences', async () => {
    const fired: string[] = [];
    const t = createTestRuntime({
      now: Date.UTC(2025, 0, 1),
      triggers: {
        seconds: defineTrigger({
          source: { type: 'scheduled', cron: '*/20 * * * * *' },
          handle: (event) => void fired.push(`cron ${iso(event.scheduledTime)}`),
        }),
        often: defineTrigger({
          source: { type: 'scheduled', every: '45s' },
          handle: (event) => void fired.push(`every ${event.every} ${iso(event.scheduledTime)}`),
        }),
      },
    });
    await t.advanceTime('1m');
    expect(fired).toEqual([
      'cron 2025-01-01T00:00:20.000Z',
      'cron 2025-01-01T00:00:40.000Z',
      'every 45s 2025-01-01T00:00:45.000Z',
      'cron 2025-01-01T00:01:00.000Z',
    ]);
    await t.stop();
  });
});
