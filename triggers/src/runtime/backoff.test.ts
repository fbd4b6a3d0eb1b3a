import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { defineTrigger } from '../define.js';
import type { RetryBackoff } from '../types.js';
import { backoffDelay, resolveBackoff } from './backoff.js';
import { createTriggerRuntime } from './create.js';

afterEach(() => {
  vi.useRealTimers();
});

const quiet = { observability: { metrics: false, tracing: false } } as const;

describe('retry backoff', () => {
  it('computes fixed and exponential delays with a cap', () => {
    const fixed = resolveBackoff('5s', 'retryDelay');
    expect([1, 2, 3].map((n) => backoffDelay(fixed, n))).toEqual([5_000, 5_000, 5_000]);
    const exponential = resolveBackoff({ type: 'exponential', base: '1s', max: '5s' }, 'retryDelay');
    expect([1, 2, 3, 4, 5, 60].map((n) => backoffDelay(exponential, n))).toEqual([
      1_000, 2_000, 4_000, 5_000, 5_000, 5_000,
    ]);
  });

  it('jitter keeps every delay between (1 - jitter) and 100 % of the computed one', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 0.999, noNaN: true }),
        (attempt, jitter, random) => {
          const backoff = resolveBackoff({ type: 'exponential', base: '100ms', max: '1h', jitter }, 'retryDelay');
          const full = Math.min(100 * 2 ** (attempt - 1), 3_600_000);
          const delay = backoffDelay(backoff, attempt, () => random);
          return delay <= full && delay >= Math.floor(full * (1 - jitter));
        },
      ),
    );
  });

  it.each([
    [{ type: 'linear', base: '1s' }, 'config.retryDelay.type'],
    [{ type: 'fixed', base: 1000 }, 'config.retryDelay.base'],
    [{ type: 'exponential', base: '1m', max: '1s' }, 'config.retryDelay.max'],
    [{ type: 'exponential', base: '1s', jitter: 2 }, 'config.retryDelay.jitter'],
    [{ type: 'exponential', base: '1s', factor: 3 }, 'config.retryDelay.factor'],
  ])('rejects the policy %j naming %s', (retryDelay, path) => {
    expect(() =>
      defineTrigger({
        source: { type: 'email' },
        config: { retryDelay: retryDelay as unknown as RetryBackoff },
        handle: () => {},
      }),
    ).toThrow(new RegExp(`^${path.replace(/\./g, '\\.')}:`));
  });

  it('dispatch waits base, then 2 × base, capped at max', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const at: number[] = [];
    const runtime = createTriggerRuntime({
      env: {},
      triggers: {
        flaky: defineTrigger({
          source: { type: 'email' },
          config: { ...quiet, retries: 4, retryDelay: { type: 'exponential', base: '10s', max: '30s' } },
          handle: () => {
            at.push(Date.now());
            throw new Error('down');
          },
        }),
      },
    });
    const run = runtime.dispatch('flaky', {}).catch(() => {});
    await vi.advanceTimersByTimeAsync(200_000);
    await run;
    expect(at.slice(1).map((t, i) => t - at[i]!)).toEqual([10_000, 20_000, 30_000, 30_000]);
  });

  it('a queue source redelivers after its own backoff by delivery count', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const at: number[] = [];
    const runtime = createTriggerRuntime({
      env: {},
      triggers: {
        consumer: defineTrigger({
          source: {
            type: 'queue',
            name: 'jobs',
            batchSize: 1,
            batchTimeout: '1ms',
            retryDelay: { type: 'exponential', base: '1s' },
          },
          config: { ...quiet, retries: 3 },
          handle: () => {
            at.push(Date.now());
            throw new Error('down');
          },
        }),
      },
    });
    await runtime.start();
    await runtime.queue('jobs').send('x');
    await vi.advanceTimersByTimeAsync(20_000);
    expect(at.slice(1).map((t, i) => t - at[i]!)).toEqual([1_000, 2_000, 4_000]);
    await runtime.stop();
  });
});
