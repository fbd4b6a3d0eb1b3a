import { describe, expect, it } from 'vitest';
import { defineTrigger } from '../define.js';
import type { SqlDbEvent } from '../types.js';
import { concurrencyProbe } from '../engine/conformance.js';
import { createTriggerRuntime } from './create.js';

describe('config.concurrency on dispatched triggers', () => {
  it('bounds handler runs at once and serialises runs that share a concurrencyKey', async () => {
    const { stats, track } = concurrencyProbe();
    const runtime = createTriggerRuntime({
      env: {},
      triggers: {
        rows: defineTrigger({
          source: { type: 'sqldb', database: 'main' },
          config: {
            concurrency: 2,
            concurrencyKey: (event: SqlDbEvent) => String(event.newRow?.tenant),
            observability: { metrics: false, tracing: false },
          },
          handle: (event) =>
            track(String(event.newRow?.tenant), () => new Promise((resolve) => setTimeout(resolve, 40))),
        }),
      },
    });
    const event = (tenant: string) => ({
      database: 'main',
      table: 't',
      operation: 'INSERT',
      newRow: { tenant },
      oldRow: null,
      primaryKey: 1,
    });
    await Promise.all(['a', 'a', 'b', 'c', 'a', 'd', 'e'].map((tenant) => runtime.dispatch('rows', event(tenant))));
    expect(stats.peak).toBe(2);
    expect(stats.keyPeak).toBe(1);
  });

  it('rejects a concurrency outside 1–1000 and a key that is not a function', () => {
    expect(() => defineTrigger({ source: { type: 'email' }, config: { concurrency: 0 }, handle: () => {} })).toThrow(
      /^config\.concurrency:/,
    );
    expect(() =>
      defineTrigger({ source: { type: 'email' }, config: { concurrencyKey: 'tenant' as never }, handle: () => {} }),
    ).toThrow(/^config\.concurrencyKey:/);
  });

  it('takes a number (fleet-wide) or { limit, scope }, and rejects a bad limit, scope or key', () => {
    const configOf = (concurrency: unknown) =>
      defineTrigger({ source: { type: 'email' }, config: { concurrency: concurrency as never }, handle: () => {} })
        .config;
    expect(configOf(5)).toMatchObject({ concurrency: 5, concurrencyScope: 'fleet' });
    expect(configOf({ limit: 7 })).toMatchObject({ concurrency: 7, concurrencyScope: 'fleet' });
    expect(configOf({ limit: 100, scope: 'instance' })).toMatchObject({
      concurrency: 100,
      concurrencyScope: 'instance',
    });
    expect(configOf(undefined)).not.toHaveProperty('concurrencyScope');
    expect(() => configOf({ limit: 0, scope: 'instance' })).toThrow(/^config\.concurrency\.limit:/);
    expect(() => configOf({ limit: 1001 })).toThrow(/^config\.concurrency\.limit:/);
    expect(() => configOf({ scope: 'instance' })).toThrow(/^config\.concurrency\.limit:/);
    expect(() => configOf({ limit: 2, scope: 'process' })).toThrow(/^config\.concurrency\.scope:/);
    expect(() => configOf({ limit: 2, key: 'tenant' })).toThrow(/^config\.concurrency/);
    expect(() => configOf('10')).toThrow(/^config\.concurrency:/);
  });

  it('holds within the process at either scope on the memory engine', async () => {
    let running = 0;
    let most = 0;
    const runtime = createTriggerRuntime({
      env: {},
      triggers: {
        jobs: defineTrigger({
          source: { type: 'queue', name: 'jobs', batchSize: 1 },
          config: { concurrency: { limit: 3, scope: 'instance' } },
          handle: async () => {
            most = Math.max(most, ++running);
            await new Promise((resolve) => setImmediate(resolve));
            running--;
          },
        }),
      },
    });
    await runtime.start();
    try {
      await runtime.queue('jobs').sendBatch(Array.from({ length: 12 }, (_, n) => ({ body: { n } })));
      await runtime.drain();
      expect(most).toBe(3);
    } finally {
      await runtime.stop();
    }
  });
});

describe('rateLimit and debounce validation', () => {
  it.each([
    [{ rateLimit: { limit: 0, window: '1s' } }, 'config.rateLimit.limit'],
    [{ rateLimit: { limit: 5, window: 1000 } }, 'config.rateLimit.window'],
    [{ rateLimit: { limit: 5, window: '1s', burst: 2 } }, 'config.rateLimit.burst'],
    [{ debounce: { key: 'doc', delay: '1s' } }, 'config.debounce.key'],
    [{ debounce: { key: () => 'k', delay: '0s' } }, 'config.debounce.delay'],
  ])('rejects %j naming %s', (config, path) => {
    expect(() =>
      defineTrigger({ source: { type: 'queue', name: 'q' }, config: config as never, handle: () => {} }),
    ).toThrow(new RegExp(`^${path.replace(/\./g, '\\.')}:`));
  });

  it('refuses them on triggers that are not queue consumers', () => {
    const trigger = defineTrigger({
      source: { type: 'email' },
      config: { rateLimit: { limit: 1, window: '1s' } },
      handle: () => {},
    });
    expect(() => createTriggerRuntime({ env: {}, triggers: { mail: trigger } })).toThrow(
      /^triggers\.mail\.config\.rateLimit: applies to queue triggers/,
    );
  });
});
