import { afterEach, describe, expect, it, vi } from 'vitest';
import { defineTrigger } from './define.js';
import { createTriggerRuntime } from './runtime/create.js';
import { passesFilters } from './tail.js';
import type { TailEvent, TailFilter, TailLog } from './types.js';

afterEach(() => {
  vi.useRealTimers();
});

const log = (over: Partial<TailLog> = {}): TailLog => ({
  outcome: 'ok',
  logs: [],
  exceptions: [],
  timestamp: new Date(0),
  durationMs: 1,
  ...over,
});

describe('tail filters', () => {
  it.each<[TailFilter[], Partial<TailLog>, boolean]>([
    [[{ field: 'outcome', value: 'exception' }], { outcome: 'exception' }, true],
    [[{ field: 'outcome', value: 'exception' }], { outcome: 'ok' }, false],
    [[{ field: 'status', value: 5, operator: 'startsWith' }], { status: 503 }, true],
    [[{ field: 'status', value: 5, operator: 'startsWith' }], { status: 200 }, false],
    [[{ field: 'status', value: '404' }], { status: 404 }, true],
    [[{ field: 'method', value: 'OS', operator: 'contains' }], { method: 'POST' }, true],
    [[{ field: 'method', value: 'POST' }], {}, false],
    [
      [
        { field: 'method', value: 'POST' },
        { field: 'status', value: 200 },
      ],
      { method: 'POST', status: 500 },
      false,
    ],
  ])('%j on %j → %s', (filters, over, expected) => {
    expect(passesFilters(log(over), filters)).toBe(expected);
  });

  it('samples with samplingRate', () => {
    const filters: TailFilter[] = [{ field: 'samplingRate', value: 0.25 }];
    expect(passesFilters(log(), filters, () => 0.2)).toBe(true);
    expect(passesFilters(log(), filters, () => 0.3)).toBe(false);
  });
});

describe('tail triggers', () => {
  it('receive batched logs of their workers, filtered, but not their own invocations', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const received: TailEvent[] = [];
    const runtime = createTriggerRuntime({
      env: {},
      name: 'api',
      tail: { batchTimeout: '1s' },
      triggers: {
        fine: defineTrigger({ source: { type: 'email' }, handle: () => {} }),
        broken: defineTrigger({
          source: { type: 'email' },
          config: { retries: 0 },
          handle: () => {
            throw new TypeError('bad input');
          },
        }),
        errors: defineTrigger({
          source: { type: 'tail', workers: ['api'], filters: [{ field: 'outcome', value: 'exception' }] },
          handle: (event) => void received.push(event),
        }),
        everything: defineTrigger({
          source: { type: 'tail', workers: ['api', 'other'] },
          handle: (event) => void received.push(event),
        }),
        elsewhere: defineTrigger({
          source: { type: 'tail', workers: ['other'] },
          handle: () => {
            throw new Error('must not run');
          },
        }),
      },
    });
    await runtime.dispatch('fine', {});
    await runtime.dispatch('broken', {}).catch(() => {});
    runtime.recordRequest({ method: 'GET', url: 'http://localhost/', status: 200, durationMs: 3 });
    expect(received).toEqual([]);
    await vi.advanceTimersByTimeAsync(1_000);
    const [first, second] = received;
    expect(first).toMatchObject({ worker: 'api', logs: [{ trigger: 'broken', outcome: 'exception' }] });
    expect(first!.logs[0]!.exceptions).toEqual([
      { name: 'TypeError', message: 'bad input', timestamp: expect.any(Date) },
    ]);
    expect(second!.logs.map((l) => l.trigger ?? l.method)).toEqual(['fine', 'broken', 'GET']);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(received).toHaveLength(2);
    await runtime.stop();
  });
});
