import { afterEach, describe, expect, it } from 'vitest';
import { serviceAvailable } from '../../../test-support/services.js';
import { defineTrigger } from '../define.js';
import { bullmqEngine } from '../engine/bullmq.js';
import { deletePrefix, engineCases, REDIS_URL, testPrefix } from '../engine/bullmq-test-support.js';
import { eventually } from '../engine/conformance.js';
import { createTriggerRuntime } from './create.js';

// Under CI=true this throws when Redis is down, failing the file.
const redisUp = await serviceAvailable('redis');

const quiet = { observability: { metrics: false, tracing: false } } as const;

describe.each(engineCases(redisUp))('queue administration (%s)', (_name, up, make) => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  function start() {
    const handled: Record<string, unknown[]> = { held: [], free: [] };
    const { engine, cleanup } = make();
    const consumer = (name: 'held' | 'free') =>
      defineTrigger({
        source: { type: 'queue', name, batchSize: 1, batchTimeout: '0ms' },
        config: { ...quiet, retries: 0 },
        handle: (event) => void handled[name]!.push(event.messages[0]!.body),
      });
    const runtime = createTriggerRuntime({
      env: {},
      engine,
      triggers: { held: consumer('held'), free: consumer('free') },
    });
    cleanups.push(cleanup, () => runtime.stop({ timeout: '2s' }));
    return { runtime, handled };
  }

  it.skipIf(!up)(
    'pause holds a queue’s messages until resume; other queues go on',
    async () => {
      const { runtime, handled } = start();
      await runtime.start();
      await runtime.pause('held');
      expect(await runtime.isPaused('held')).toBe(true);
      expect(await runtime.isPaused('free')).toBe(false);
      const id = await runtime.queue('held').send('a');
      await runtime.queue('free').send('b');
      await eventually(() => expect(handled.free).toEqual(['b']), 10_000);
      expect(await runtime.getRun(id)).toMatchObject({ status: 'waiting', attempts: 0 });
      expect(handled.held).toEqual([]);
      await runtime.resume('held');
      await eventually(() => expect(handled.held).toEqual(['a']), 10_000);
    },
    30_000,
  );

  it.skipIf(!up)(
    'a message past its ttl is not run but fails with EXPIRED; clean removes it',
    async () => {
      const { runtime, handled } = start();
      await runtime.start();
      const id = await runtime.queue('held').send('late', { delay: '50ms', ttl: '1ms' });
      await eventually(
        async () => expect(await runtime.getRun(id)).toMatchObject({ status: 'failed', error: 'EXPIRED' }),
        10_000,
      );
      expect(handled.held).toEqual([]);
      expect(await runtime.clean('held', { state: 'failed', age: '1h' })).toEqual([]);
      expect(await runtime.clean('held', { state: 'failed' })).toEqual([id]);
      expect(await runtime.getRun(id)).toBeNull();
    },
    30_000,
  );
});

describe.skipIf(!redisUp)('bullmqEngine({ keepFailed })', () => {
  it('keeps only the newest failed messages (removeOnFail count)', async () => {
    const prefix = testPrefix();
    const runtime = createTriggerRuntime({
      env: {},
      engine: bullmqEngine({ connection: REDIS_URL, prefix, keepFailed: { count: 1 } }),
      triggers: {
        broken: defineTrigger({
          source: { type: 'queue', name: 'broken', batchSize: 1, batchTimeout: '0ms' },
          config: { ...quiet, retries: 0 },
          handle: () => {
            throw new Error('no');
          },
        }),
      },
    });
    try {
      await runtime.start();
      const first = await runtime.queue('broken').send('a', { wait: false });
      await eventually(async () => expect(await runtime.getRun(first)).toMatchObject({ status: 'failed' }), 10_000);
      const second = await runtime.queue('broken').send('b');
      await eventually(async () => expect(await runtime.getRun(second)).toMatchObject({ status: 'failed' }), 10_000);
      expect((await runtime.failed('broken')).map((m) => m.id)).toEqual([second]);
      expect(await runtime.getRun(first)).toBeNull();
    } finally {
      await runtime.stop({ timeout: '2s' });
      await deletePrefix(prefix);
    }
  }, 30_000);
});
