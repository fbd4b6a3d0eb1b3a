import { afterAll, describe, expect, it } from 'vitest';
import { serviceAvailable } from '../../../test-support/services.js';
import { bullmqEngine } from '../engine/bullmq.js';
import { deletePrefix, REDIS_URL, testPrefix } from '../engine/bullmq-test-support.js';
import type { EventWaiter, EventWaits, StepStore } from '../engine/types.js';
import { memoryStepStore } from './steps.js';
import { memoryEventWaits } from './step-waits.js';

// Under CI=true this throws when Redis is down, failing the file.
const redisUp = await serviceAvailable('redis');

const waiter = (runId: string, stepId = 'paid'): EventWaiter => ({
  key: `${runId}|${stepId}`,
  kind: 'wait',
  runId,
  stepId,
  trigger: 'orders',
  queue: 'orders',
  messageId: runId,
  match: { orderId: 1 },
  until: Date.now() + 60_000,
});

const prefix = testPrefix();
const engine = bullmqEngine({ connection: REDIS_URL, prefix });
afterAll(async () => {
  await engine.stop();
  if (redisUp) await deletePrefix(prefix);
});

const stores: Array<[string, () => { waits: EventWaits; steps: StepStore }, boolean]> = [
  [
    'memory',
    () => {
      const steps = memoryStepStore();
      return { waits: memoryEventWaits(steps), steps };
    },
    true,
  ],
  ['redis', () => ({ waits: engine.waits!, steps: engine.steps! }), redisUp],
];

describe.each(stores)('event waits (%s)', (_name, make, available) => {
  it.skipIf(!available)('lists waiters by event and replaces one by key', async () => {
    const { waits } = make();
    const event = `order.paid.${testPrefix()}`;
    await waits.add(event, waiter('run-a'));
    await waits.add(event, { ...waiter('run-a'), until: 1 });
    await waits.add(event, waiter('run-b'));
    const listed = await waits.list(event);
    expect(listed.map((w) => [w.key, w.until === 1]).sort()).toEqual([
      ['run-a|paid', true],
      ['run-b|paid', false],
    ]);
    expect(await waits.list(`${event}.other`)).toEqual([]);
  });

  it.skipIf(!available)(
    'take is atomic: of two concurrent takers one wins, and only its step result is stored',
    async () => {
      const { waits, steps } = make();
      const event = `order.paid.${testPrefix()}`;
      const run = `run-${testPrefix()}`;
      await waits.add(event, waiter(run));
      const results = await Promise.all([
        waits.take(event, `${run}|paid`, { runId: run, stepId: 'paid', value: '"event"' }),
        waits.take(event, `${run}|paid`, { runId: run, stepId: 'paid', value: '"timeout"' }),
      ]);
      expect([...results].sort()).toEqual([false, true]);
      expect((await steps.load(run)).paid).toBe(results[0] ? '"event"' : '"timeout"');
      expect(await waits.list(event)).toEqual([]);
      // A take of a waiter already taken stores nothing.
      await steps.clear(run);
      expect(await waits.take(event, `${run}|paid`, { runId: run, stepId: 'paid', value: '"late"' })).toBe(false);
      expect(await steps.load(run)).toEqual({});
    },
  );

  it.skipIf(!available)('a take keeps a result the step already holds (the first event wins)', async () => {
    const { waits, steps } = make();
    const event = `order.paid.${testPrefix()}`;
    const run = `run-${testPrefix()}`;
    await steps.save(run, 'paid', '{"v":"first"}');
    await waits.add(event, waiter(run));
    expect(await waits.take(event, `${run}|paid`, { runId: run, stepId: 'paid', value: '{"v":"second"}' })).toBe(false);
    expect((await steps.load(run)).paid).toBe('{"v":"first"}');
    expect(await waits.list(event)).toEqual([]);
  });
});
