import { describe, expect, it } from 'vitest';
import { defineTrigger } from '../define.js';
import type { RunRecord } from './runs.js';
import { createTriggerRuntime } from './create.js';

function setup(deadLetterQueue?: string) {
  let failing = true;
  const runtime = createTriggerRuntime({
    env: {},
    triggers: {
      hello: defineTrigger({ source: { type: 'webhook', path: '/hook' }, handle: () => {} }),
      consumer: defineTrigger({
        source: {
          type: 'queue',
          name: 'jobs',
          batchSize: 1,
          batchTimeout: '0s',
          ...(deadLetterQueue ? { deadLetterQueue } : {}),
        },
        config: { retries: 0 },
        handle: () => {
          if (failing) throw new Error('boom');
        },
      }),
    },
  });
  return { runtime, heal: () => (failing = false) };
}

async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200 && !(await check()); i++) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe('runtime.onRun', () => {
  it('reports each attempt with status, attempt, trace id, error and its logs; nothing after unsubscribe', async () => {
    const { runtime } = setup();
    const runs: RunRecord[] = [];
    const stop = runtime.onRun((run) => runs.push(run));
    await runtime.dispatch('hello', {});
    await expect(runtime.dispatch('consumer', { queue: 'jobs', messages: [] })).rejects.toThrow('boom');
    expect(runs.map((r) => [r.trigger, r.source, r.status, r.attempt])).toEqual([
      ['hello', 'webhook', 'ok', 1],
      ['consumer', 'queue', 'exception', 1],
    ]);
    expect(runs[1]!.error).toBe('boom');
    expect(runs[1]!.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(runs.map((r) => r.id)).toEqual(['run-1', 'run-2']);
    expect(runs[1]!.logs.some((l) => l.message.includes('attempt 1 failed: boom'))).toBe(true);
    expect(runs[0]!.durationMs).toBeGreaterThanOrEqual(0);
    stop();
    await runtime.dispatch('hello', {});
    expect(runs).toHaveLength(2);
  });

  it('exposes the definitions by name', () => {
    const { runtime } = setup();
    expect(Object.keys(runtime.definitions)).toEqual(['hello', 'consumer']);
    expect(runtime.definitions.consumer!.source).toMatchObject({ type: 'queue', name: 'jobs' });
  });
});

describe('runtime.inspectQueues and discard (memory engine)', () => {
  it('counts a failed message, lists it, and discards it', async () => {
    const { runtime } = setup();
    await runtime.start();
    const id = await runtime.queue('jobs').send({ n: 1 });
    await until(async () => (await runtime.failed('jobs')).length === 1);
    const [stats] = await runtime.inspectQueues();
    expect(stats).toMatchObject({
      queue: 'jobs',
      trigger: 'consumer',
      waiting: 0,
      inFlight: 0,
      failed: 1,
      deadLettered: 0,
    });
    expect(stats!.messages.map((m) => m.id)).toEqual([id]);
    expect(await runtime.discard('consumer', { id })).toEqual([id]);
    expect((await runtime.inspectQueues())[0]).toMatchObject({ failed: 0, messages: [] });
    await runtime.stop();
  });

  it('lists dead letters waiting in the dead-letter queue; replay then succeeds', async () => {
    const { runtime, heal } = setup('jobs-dlq');
    await runtime.start();
    const id = await runtime.queue('jobs').send({ n: 2 });
    await until(async () => (await runtime.inspectQueues())[0]!.deadLettered === 1);
    const [stats] = await runtime.inspectQueues();
    expect(stats).toMatchObject({ deadLetterQueue: 'jobs-dlq', failed: 0, deadLettered: 1 });
    expect(stats!.messages[0]).toMatchObject({
      id,
      queue: 'jobs',
      reason: 'retries exhausted after 1 deliveries: boom',
    });
    heal();
    const runs: RunRecord[] = [];
    runtime.onRun((run) => runs.push(run));
    expect(await runtime.replay('consumer', { id })).toEqual([id]);
    await until(() => runs.length === 1);
    expect(runs[0]).toMatchObject({ trigger: 'consumer', status: 'ok' });
    expect((await runtime.inspectQueues())[0]).toMatchObject({ deadLettered: 0 });
    await runtime.stop();
  });
});
