import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { serviceAvailable } from '../../../test-support/services.js';
import { Queue } from 'bullmq';
import { bullmqEngine } from './bullmq.js';
import { openConnection } from './bullmq-connection.js';
import {
  deletePrefix,
  REDIS_URL,
  startChild as startRuntime,
  stopChild,
  testPrefix,
  type ChildRuntime,
} from './bullmq-test-support.js';
import { eventually } from './conformance.js';
import type { TriggerEngine } from './types.js';

// Under CI=true this throws when Redis is down, failing the file.
const redisUp = await serviceAvailable('redis');

const CHILD = fileURLToPath(new URL('./__fixtures__/bullmq-child.ts', import.meta.url));

type Child = ChildRuntime;
const startChild = (config: Record<string, unknown>) => startRuntime(CHILD, config);

const handled = (children: Child[]) => children.flatMap((c) => c.lines.filter((l) => typeof l.n === 'number'));

describe.skipIf(!redisUp)('bullmqEngine across processes', () => {
  const children: Child[] = [];
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    await Promise.all(children.splice(0).map((child) => stopChild(child, 'SIGKILL')));
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  async function producer(prefix: string): Promise<TriggerEngine> {
    const engine = bullmqEngine({ connection: REDIS_URL, prefix });
    cleanups.push(async () => {
      await engine.stop();
      await deletePrefix(prefix);
    });
    return engine;
  }

  async function sendNumbered(engine: TriggerEngine, total: number): Promise<void> {
    for (let from = 0; from < total; from += 100) {
      await engine.send(
        'work',
        Array.from({ length: Math.min(100, total - from) }, (_, i) => ({ body: { n: from + i } })),
      );
    }
  }

  it('two runtimes handle 1,000 messages, each exactly once', async () => {
    const prefix = testPrefix();
    const engine = await producer(prefix);
    children.push(
      ...(await Promise.all([startChild({ prefix, mode: 'queue' }), startChild({ prefix, mode: 'queue' })])),
    );
    await sendNumbered(engine, 1_000);
    await eventually(() => expect(handled(children).length).toBeGreaterThanOrEqual(1_000), 20_000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const numbers = handled(children).map((l) => l.n as number);
    expect(numbers).toHaveLength(1_000);
    expect(new Set(numbers).size).toBe(1_000);
    expect(children.every((c) => c.lines.some((l) => typeof l.n === 'number'))).toBe(true);
  }, 60_000);

  it('loses nothing when a process is killed mid-batch: its batch (and the batch it fetched ahead) is redelivered with attempts + 1', async () => {
    const prefix = testPrefix();
    const engine = await producer(prefix);
    const victim = await startChild({ prefix, mode: 'queue', handlerDelayMs: 5_000 });
    children.push(victim);
    await sendNumbered(engine, 200);
    await eventually(() => expect(victim.lines.some((l) => l.batch === 10)).toBe(true), 10_000);
    const survivor = await startChild({ prefix, mode: 'queue' });
    children.push(survivor);
    await stopChild(victim, 'SIGKILL');
    expect(handled([victim])).toEqual([]);
    await eventually(() => expect(new Set(handled([survivor]).map((l) => l.n)).size).toBe(200), 20_000);
    const redelivered = handled([survivor]).filter((l) => (l.attempts as number) > 1);
    // The delivered batch of 10, plus up to one batch fetched ahead while the handler ran.
    expect(redelivered.length).toBeGreaterThanOrEqual(10);
    expect(redelivered.length).toBeLessThanOrEqual(20);
    expect(new Set(handled([survivor]).map((l) => l.n)).size).toBe(handled([survivor]).length);
  }, 60_000);

  it('a message that kills its worker is dead-lettered with reason STALLED after retries + 1 deliveries', async () => {
    const prefix = testPrefix();
    const engine = await producer(prefix);
    const opened = await openConnection(REDIS_URL);
    const dlq = new Queue('work-dlq', { connection: opened.connection, prefix });
    cleanups.push(async () => {
      await dlq.close();
      await opened.close();
    });
    await engine.send('work', [{ body: { poison: true } }]);
    const deliveries: number[] = [];
    let deaths = 0;
    for (let spawned = 0; spawned < 5 && (await dlq.getWaitingCount()) === 0; spawned++) {
      const child = await startChild({ prefix, mode: 'poison' });
      children.push(child);
      const dead = await Promise.race([
        child.exited.then(() => true),
        eventually(async () => expect(await dlq.getWaitingCount()).toBe(1), 8_000).then(
          () => false,
          () => false,
        ),
      ]);
      deliveries.push(...child.lines.filter((l) => typeof l.poisoned === 'number').map((l) => l.poisoned as number));
      if (dead) deaths++;
    }
    // retries: 1 → two deliveries ran the handler (and died); the third is dead-lettered unrun.
    expect(deliveries).toEqual([1, 2]);
    expect(deaths).toBe(2);
    const [job] = await dlq.getWaiting();
    expect(job?.data).toMatchObject({ body: { poison: true }, deadLetter: { from: 'work', reason: 'STALLED' } });
  }, 60_000);

  it('a slow cron (2.5 s run, 1 s schedule) over 2 instances never runs twice at once (overlap: skip)', async () => {
    const prefix = testPrefix();
    cleanups.push(() => deletePrefix(prefix));
    const config = { prefix, mode: 'slow-schedule', scale: 60, epoch: Date.now(), handlerDelayMs: 2_500 };
    children.push(...(await Promise.all([startChild(config), startChild(config)])));
    const events = () =>
      children.flatMap((c) =>
        c.lines.flatMap((l) =>
          typeof l.started === 'number' ? [[l.started, 1]] : typeof l.ended === 'number' ? [[l.ended, -1]] : [],
        ),
      ) as Array<[number, number]>;
    await eventually(() => expect(events().filter(([, d]) => d < 0).length).toBeGreaterThanOrEqual(2), 20_000);
    // Ends sort before starts at the same millisecond.
    let running = 0;
    let peak = 0;
    for (const [, delta] of events().sort((a, b) => a[0] - b[0] || a[1] - b[1])) {
      running += delta;
      peak = Math.max(peak, running);
    }
    expect(peak).toBe(1);
  }, 60_000);

  it('durable steps: a run killed between steps resumes after the last completed one; each step ran once', async () => {
    const prefix = testPrefix();
    const engine = await producer(prefix);
    await engine.send('work', [{ body: { n: 1 } }]);
    const first = await startChild({ prefix, mode: 'steps' });
    children.push(first);
    await first.exited; // killed itself after step one
    const second = await startChild({ prefix, mode: 'steps' });
    children.push(second);
    await eventually(() => expect(second.lines).toContainEqual({ finished: 1 }), 15_000);
    const steps = children.flatMap((c) => c.lines.filter((l) => typeof l.step === 'string').map((l) => l.step));
    expect(steps).toEqual(['one', 'two']);
    expect(first.lines.filter((l) => l.step === 'one')).toHaveLength(1);
  }, 60_000);

  it('a handler past timeout + gracePeriod keeps its job: no copy of a message runs twice at once, no process exceeds concurrency 2', async () => {
    const prefix = testPrefix();
    const engine = await producer(prefix);
    children.push(
      ...(await Promise.all([startChild({ prefix, mode: 'overrun' }), startChild({ prefix, mode: 'overrun' })])),
    );
    const lines = () => children.flatMap((c) => c.lines);
    const ends = () => lines().filter((l) => typeof l.end === 'number');
    // One message alone: its retry would find a free slot somewhere if the abandoned run gave its job back.
    await engine.send('work', [{ body: { n: 0 } }]);
    await eventually(() => expect(ends()).toHaveLength(2), 30_000);
    await engine.send(
      'work',
      Array.from({ length: 7 }, (_, i) => ({ body: { n: i + 1 } })),
    );
    // Eight messages, two deliveries each (retries: 1), every run to its end.
    await eventually(() => expect(ends()).toHaveLength(16), 30_000);
    // Each job is settled (kept as failed) just after its handler ends.
    await eventually(async () => expect(await engine.failed('work')).toHaveLength(8), 10_000);
    for (const child of children) {
      expect(
        Math.max(...child.lines.flatMap((l) => (typeof l.running === 'number' ? [l.running] : []))),
      ).toBeLessThanOrEqual(2);
    }
    for (let n = 0; n < 8; n++) {
      // Ends sort before starts at the same millisecond: a delivery follows the end of the previous one.
      const events = lines()
        .flatMap((l) => (l.start === n ? [[l.at as number, 1]] : l.end === n ? [[l.at as number, -1]] : []))
        .sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]!);
      let copies = 0;
      for (const [, delta] of events) {
        copies += delta!;
        expect(copies).toBeLessThanOrEqual(1);
      }
    }
  }, 60_000);

  it('a one-minute cron over 3 instances fires once per occurrence (clock at 60× speed)', async () => {
    const prefix = testPrefix();
    cleanups.push(() => deletePrefix(prefix));
    const epoch = Date.now();
    const config = { prefix, mode: 'schedule', scale: 60, epoch };
    children.push(...(await Promise.all([startChild(config), startChild(config), startChild(config)])));
    const fired = () =>
      children.flatMap((c) => c.lines.filter((l) => typeof l.fired === 'string').map((l) => l.fired as string));
    await eventually(() => expect(fired().length).toBeGreaterThanOrEqual(3), 15_000);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const times = fired().sort();
    expect(new Set(times).size).toBe(times.length);
    for (let i = 1; i < times.length; i++) expect(Date.parse(times[i]!) - Date.parse(times[i - 1]!)).toBe(60_000);
  }, 60_000);
});
