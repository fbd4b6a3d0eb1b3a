import { afterEach, describe, expect, it, vi } from 'vitest';
import { defineTrigger } from '../define.js';
import type { ScheduledEvent } from '../types.js';
import { createTriggerRuntime } from './create.js';

afterEach(() => {
  vi.useRealTimers();
});

const cron = (expression: string, timezone?: string) =>
  defineTrigger({
    source: { type: 'scheduled', cron: expression, ...(timezone ? { timezone } : {}) },
    handle: () => {},
  });

describe('scheduled triggers', () => {
  it('fire at croner occurrences in their timezone, only while started', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    vi.setSystemTime(new Date('2025-06-01T06:58:30Z'));
    const events: ScheduledEvent[] = [];
    const runtime = createTriggerRuntime({
      env: {},
      triggers: {
        morning: defineTrigger({
          source: { type: 'scheduled', cron: '0 9 * * *', timezone: 'Europe/Berlin' },
          handle: (event) => void events.push(event),
        }),
      },
    });
    await vi.advanceTimersByTimeAsync(5 * 60_000);
    expect(events).toEqual([]);
    vi.setSystemTime(new Date('2025-06-01T06:58:30Z'));
    await runtime.start();
    await vi.advanceTimersByTimeAsync(89_999);
    expect(events).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(events).toEqual([{ cron: '0 9 * * *', scheduledTime: new Date('2025-06-01T07:00:00Z') }]);
    await vi.advanceTimersByTimeAsync(24 * 3_600_000);
    expect(events[1]?.scheduledTime).toEqual(new Date('2025-06-02T07:00:00Z'));
    await runtime.stop();
    await vi.advanceTimersByTimeAsync(48 * 3_600_000);
    expect(events).toHaveLength(2);
  });

  it('allows 1,000 scheduled triggers per runtime by default; limits.maxCronTriggers lowers it', () => {
    const triggers = { a: cron('0 1 * * *'), b: cron('0 2 * * *'), c: cron('0 3 * * *'), d: cron('0 4 * * *') };
    expect(createTriggerRuntime({ env: {}, triggers }).triggers).toEqual(['a', 'b', 'c', 'd']);
    expect(() => createTriggerRuntime({ env: {}, triggers, limits: { maxCronTriggers: 3 } })).toThrow(
      expect.objectContaining({
        code: 'TRIGGER_LIMIT_EXCEEDED',
        message: expect.stringContaining('4 scheduled triggers exceed the limit of 3'),
      }),
    );
    const many = Object.fromEntries(Array.from({ length: 1_001 }, (_, i) => [`t${i}`, cron('0 1 * * *')]));
    expect(() => createTriggerRuntime({ env: {}, triggers: many })).toThrow('1001 scheduled triggers exceed');
  });

  it('enforces the minimum cron interval limit', () => {
    expect(() =>
      createTriggerRuntime({ env: {}, triggers: { often: cron('*/5 * * * *') }, limits: { minCronInterval: '10m' } }),
    ).toThrow("triggers.often.source.cron: cron '*/5 * * * *' fires every 300s");
    // The default, one second, lets 6-field crons and `every` run each second.
    expect(createTriggerRuntime({ env: {}, triggers: { often: cron('* * * * * *') } }).triggers).toEqual(['often']);
    const everyTwo = defineTrigger({ source: { type: 'scheduled', every: '2s' }, handle: () => {} });
    expect(() =>
      createTriggerRuntime({ env: {}, triggers: { often: everyTwo }, limits: { minCronInterval: '5s' } }),
    ).toThrow("triggers.often.source.every: cron 'every 2s' fires every 2s");
  });

  it('enforces batch size and timeout limits, and one consumer per queue', () => {
    const consumer = (batchSize: number, timeout: `${number}s` = '30s') =>
      defineTrigger({ source: { type: 'queue', name: 'q', batchSize }, handle: () => {}, config: { timeout } });
    expect(() =>
      createTriggerRuntime({ env: {}, triggers: { c: consumer(50) }, limits: { maxBatchSize: 20 } }),
    ).toThrow('triggers.c.source.batchSize: 50 exceeds limits.maxBatchSize of 20');
    expect(() =>
      createTriggerRuntime({ env: {}, triggers: { c: consumer(5, '60s') }, limits: { maxTimeout: '30s' } }),
    ).toThrow("triggers.c.config.timeout: '60s' exceeds limits.maxTimeout of 30s");
    expect(() => createTriggerRuntime({ env: {}, triggers: { a: consumer(1), b: consumer(1) } })).toThrow(
      `queue 'q' already has the consumer "a"`,
    );
  });

  it('rejects invalid names and objects that are not definitions', () => {
    expect(() => createTriggerRuntime({ env: {}, triggers: { 'bad name': cron('0 1 * * *') } })).toThrow(
      /^triggers\.bad name: /,
    );
    expect(() => createTriggerRuntime({ env: {}, triggers: { x: { source: {}, handle() {} } as never } })).toThrow(
      'expected the result of defineTrigger',
    );
  });
});
