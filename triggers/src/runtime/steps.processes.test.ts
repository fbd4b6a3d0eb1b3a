import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Queue } from 'bullmq';
import { afterEach, describe, expect, it } from 'vitest';
import { serviceAvailable } from '../../../test-support/services.js';
import { bullmqEngine } from '../engine/bullmq.js';
import { deletePrefix, REDIS_URL, testPrefix } from '../engine/bullmq-test-support.js';
import { eventually } from '../engine/conformance.js';
import { createTriggerRuntime, type TriggerRuntime } from './create.js';

// Under CI=true this throws when Redis is down, failing the file.
const redisUp = await serviceAvailable('redis');
const CHILD = fileURLToPath(new URL('./__fixtures__/step-child.ts', import.meta.url));

/** A child runtime: its printed JSON lines, and a promise of its exit. */
function spawnRuntime(prefix: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD], {
    env: { ...process.env, CHILD_CONFIG: JSON.stringify({ redisUrl: REDIS_URL, prefix }) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: Array<Record<string, unknown>> = [];
  createInterface({ input: child.stdout }).on('line', (line) => {
    if (line.startsWith('{')) lines.push(JSON.parse(line) as Record<string, unknown>);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const kill = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  };
  return { lines, exited, kill };
}

describe.skipIf(!redisUp)('durable steps across processes (BullMQ)', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('a run killed between steps resumes; waitForEvent and cancelOn outlive the process that waits', async () => {
    const prefix = testPrefix();
    cleanups.push(() => deletePrefix(prefix));
    // The sender: a runtime of its own on the same Redis, with no consumers.
    const sender: TriggerRuntime = createTriggerRuntime({
      name: 'steps',
      env: {},
      triggers: {},
      engine: bullmqEngine({ connection: REDIS_URL, prefix }),
    });
    cleanups.push(() => sender.stop());
    const queue = new Queue('orders', { connection: { url: REDIS_URL }, prefix });
    cleanups.push(() => queue.close());
    await queue.addBulk([
      { name: 'message', data: { body: { orderId: 1, timeout: '1h' } }, opts: { jobId: 'order-1' } },
      { name: 'message', data: { body: { orderId: 2, timeout: '3s' } }, opts: { jobId: 'order-2' } },
      { name: 'message', data: { body: { orderId: 3, timeout: '1h', nap: true } }, opts: { jobId: 'order-3' } },
    ]);

    const first = spawnRuntime(prefix);
    cleanups.push(first.kill);
    await first.exited; // order 1 killed it between 'reserve' and the wait
    expect(first.lines).toContainEqual({ step: 'reserve', orderId: 1 });

    const second = spawnRuntime(prefix);
    cleanups.push(second.kill);
    // Every order is suspended in Redis (delayed jobs), order 1 after its stalled redelivery.
    await eventually(async () => {
      expect(second.lines.filter((l) => typeof l.waiting === 'number')).toHaveLength(3);
      expect(await queue.getDelayedCount()).toBe(3);
    }, 20_000);
    await second.kill();

    // No process waits any more: the event and the cancellation go to Redis.
    expect(await sender.sendEvent('order.paid', { orderId: 99 })).toEqual({ resumed: 0, canceled: 0 });
    expect(await sender.sendEvent('order.paid', { orderId: 1, amount: 12 })).toEqual({ resumed: 1, canceled: 0 });
    expect(await sender.sendEvent('order.cancelled', { orderId: 3 })).toEqual({ resumed: 0, canceled: 1 });
    expect(await queue.getJob('order-3')).toBeUndefined();

    const third = spawnRuntime(prefix);
    cleanups.push(third.kill);
    await eventually(() => {
      expect(third.lines).toContainEqual({ finished: 1, paid: { orderId: 1, amount: 12 } });
      expect(third.lines).toContainEqual({ finished: 2, paid: null }); // its 3 s timeout passed
    }, 20_000);
    const all = [...first.lines, ...second.lines, ...third.lines];
    const steps = all.filter((l) => typeof l.step === 'string').map((l) => `${String(l.step)} ${String(l.orderId)}`);
    // Each step ran once, across three processes; order 3 was cancelled while it slept.
    expect(steps.sort()).toEqual(['reserve 1', 'reserve 2', 'reserve 3', 'ship 1', 'ship 2']);
    expect(all.some((l) => l.finished === 3)).toBe(false);
  }, 90_000);
});
