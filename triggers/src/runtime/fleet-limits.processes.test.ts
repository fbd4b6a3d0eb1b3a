import { fileURLToPath } from 'node:url';
import { Queue } from 'bullmq';
import { afterEach, describe, expect, it } from 'vitest';
import { serviceAvailable } from '../../../test-support/services.js';
import { bullmqEngine } from '../engine/bullmq.js';
import { openConnection } from '../engine/bullmq-connection.js';
import {
  deletePrefix,
  REDIS_URL,
  startChild,
  stopChild,
  testPrefix,
  type ChildRuntime,
} from '../engine/bullmq-test-support.js';
import { eventually } from '../engine/conformance.js';
import type { TriggerEngine } from '../engine/types.js';

// Under CI=true this throws when Redis is down, failing the file.
const redisUp = await serviceAvailable('redis');

const CHILD = fileURLToPath(new URL('./__fixtures__/fleet-child.ts', import.meta.url));

/** The `running` counts the children saw, with their key, and the runs they finished. */
const seen = (children: ChildRuntime[]) => children.flatMap((c) => c.lines.filter((l) => 'running' in l));
const done = (children: ChildRuntime[]) => children.flatMap((c) => c.lines.filter((l) => 'done' in l));

describe.skipIf(!redisUp)('fleet-wide limits on BullMQ, two processes', () => {
  const children: ChildRuntime[] = [];
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    await Promise.all(children.splice(0).map((child) => stopChild(child, 'SIGKILL')));
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  async function twoRuntimes(mode: string): Promise<{ engine: TriggerEngine; prefix: string }> {
    const prefix = testPrefix();
    const engine = bullmqEngine({ connection: REDIS_URL, prefix });
    cleanups.push(async () => {
      await engine.stop();
      await deletePrefix(prefix);
    });
    children.push(...(await Promise.all([startChild(CHILD, { prefix, mode }), startChild(CHILD, { prefix, mode })])));
    return { engine, prefix };
  }

  const bodies = (count: number, body: (i: number) => unknown) =>
    Array.from({ length: count }, (_, i) => ({ body: body(i) }));

  it('concurrency: 1 on a queue trigger never runs two handlers at once across the processes', async () => {
    const { engine } = await twoRuntimes('concurrency');
    await engine.send(
      'work',
      bodies(30, (n) => ({ n })),
    );
    await eventually(() => expect(done(children)).toHaveLength(30), 30_000);
    expect(seen(children).map((l) => l.running)).toEqual(Array(30).fill(1));
    // Both processes took part: the limit is shared, not one process doing everything.
    expect(children.every((c) => c.lines.some((l) => 'done' in l))).toBe(true);
  }, 60_000);

  it('concurrency: 1 on an emitted (non-queue) trigger holds across the processes', async () => {
    const { engine } = await twoRuntimes('emit-concurrency');
    await engine.send(
      'framework.emit.fleet',
      bodies(20, (n) => ({ target: 'mail', payload: { n } })),
    );
    await eventually(() => expect(done(children)).toHaveLength(20), 30_000);
    expect(seen(children).map((l) => l.running)).toEqual(Array(20).fill(1));
  }, 60_000);

  it("concurrency { limit: 1, scope: 'instance' } on an emitted trigger runs one at a time in each process, both at once", async () => {
    const { engine } = await twoRuntimes('emit-instance');
    await engine.send(
      'framework.emit.fleet',
      bodies(6, (n) => ({ target: 'mail', payload: { n } })),
    );
    await eventually(() => expect(done(children)).toHaveLength(6), 30_000);
    // Each handler waits for one in the other process: with a fleet-wide limit of 1 none would ever see two.
    expect(Math.max(...seen(children).map((l) => Number(l.running)))).toBe(2);
    expect(seen(children).map((l) => l.local)).toEqual(Array(6).fill(1));
  }, 60_000);

  it.each([
    ['', 'key'],
    [" beside a concurrency scoped to the instance (the key's limit stays fleet-wide)", 'key-instance'],
  ])(
    'concurrencyKey runs one message per key at a time across the processes%s',
    async (_, mode) => {
      const { engine } = await twoRuntimes(mode);
      await engine.send(
        'work',
        bodies(30, (n) => ({ tenant: n % 2 === 0 ? 'acme' : 'globex' })),
      );
      await eventually(() => expect(done(children)).toHaveLength(30), 30_000);
      const counts = seen(children);
      expect(counts.filter((l) => l.key === 'acme').map((l) => l.running)).toEqual(Array(15).fill(1));
      expect(counts.filter((l) => l.key === 'globex').map((l) => l.running)).toEqual(Array(15).fill(1));
    },
    60_000,
  );

  it('throttle { limit: 2, window: 1h } lets two runs start across both processes; the rest wait, uncounted', async () => {
    const { engine, prefix } = await twoRuntimes('throttle');
    await engine.send(
      'work',
      bodies(5, (n) => ({ n })),
    );
    const { connection, close } = await openConnection(REDIS_URL);
    const queue = new Queue('work', { connection, prefix });
    cleanups.push(async () => {
      await queue.close();
      await close();
    });
    // The three over the limit go back to the queue, delayed until the window ends.
    await eventually(async () => {
      expect(await queue.getJobCounts('delayed', 'completed')).toEqual({ delayed: 3, completed: 2 });
      expect(done(children)).toHaveLength(2);
    }, 30_000);
    // Not counted as deliveries: a throttled message keeps its attempts.
    for (const job of await queue.getJobs(['delayed'])) expect(job.data.suspensions).toBeGreaterThanOrEqual(1);
  }, 60_000);
});
