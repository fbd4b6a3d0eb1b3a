/**
 * The engine conformance suite: one set of vitest tests that every
 * `TriggerEngine` must pass, run through a real runtime with real timers and
 * short durations. `memory.conformance.test.ts` and
 * `bullmq.conformance.test.ts` run it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { defineTrigger } from '../define.js';
import { createTriggerRuntime, type TriggerRuntime } from '../runtime/create.js';
import type { QueueEvent, QueueSource, ScheduledEvent, TriggerConfig, TriggerDefinition } from '../types.js';
import { scaledClock, type EngineClock } from './clock.js';
import type { TriggerEngine } from './types.js';

/** Creates a fresh, isolated engine; `cleanup` removes whatever it stored. */
export type EngineFactory = (options: { clock?: EngineClock }) => Promise<{ engine: TriggerEngine; cleanup(): Promise<void> }>;

interface Delivery {
  body: unknown;
  attempts: number;
  at: number;
}

/** Polls `check` until it passes or `timeoutMs` elapses. */
export async function eventually(check: () => void | Promise<void>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

const quiet = { observability: { metrics: false, tracing: false } } as const;

/** Runs the conformance suite against engines made by `factory`. */
export function runEngineConformance(name: string, factory: EngineFactory): void {
  describe(`engine conformance: ${name}`, () => {
    const cleanups: Array<() => Promise<void>> = [];
    afterEach(async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    });

    async function setup(
      triggers: Record<string, TriggerDefinition<any, any>>,
      clock?: EngineClock,
    ): Promise<TriggerRuntime> {
      const { engine, cleanup } = await factory(clock ? { clock } : {});
      const runtime = createTriggerRuntime({ env: {}, triggers, engine, name: 'conformance' });
      cleanups.push(async () => {
        await runtime.stop({ timeout: '2s' });
        await cleanup();
      });
      return runtime;
    }

    function consumer(
      batches: Delivery[][],
      source: Partial<QueueSource>,
      handle: (event: QueueEvent) => void | Promise<void> = () => {},
      config: TriggerConfig = {},
    ) {
      return defineTrigger({
        source: { type: 'queue', name: 'jobs', batchTimeout: '150ms', retryDelay: '100ms', ...source },
        config: { ...quiet, ...config },
        handle: async (event) => {
          const at = Date.now();
          batches.push(event.messages.map((m) => ({ body: m.body, attempts: m.attempts, at })));
          await handle(event);
        },
      });
    }

    it('delivers full batches at once and a partial batch after batchTimeout', async () => {
      const batches: Delivery[][] = [];
      const runtime = await setup({ c: consumer(batches, { batchSize: 3, batchTimeout: '400ms' }) });
      await runtime.queue('jobs').sendBatch([1, 2, 3, 4].map((body) => ({ body })));
      const started = Date.now();
      await runtime.start();
      await eventually(() => expect(batches).toHaveLength(2));
      expect(batches.map((b) => b.map((d) => d.body))).toEqual([[1, 2, 3], [4]]);
      expect(batches[0]![0]!.at - started).toBeLessThan(350);
      expect(batches[1]![0]!.at - batches[0]![0]!.at).toBeGreaterThanOrEqual(350);
    });

    it('settles each message on its own: ack, retry with a delay, deadLetter with a reason', async () => {
      const batches: Delivery[][] = [];
      const runtime = await setup({
        c: consumer(batches, { batchSize: 3 }, (event) => {
          if (event.messages.length < 3) return;
          const [a, b] = event.messages;
          a!.retry({ delay: '300ms' });
          a!.ack(); // ignored
          b!.deadLetter('bad body');
        }),
      });
      await runtime.start();
      await runtime.queue('jobs').sendBatch([{ body: 'a' }, { body: 'b' }, { body: 'c' }]);
      await eventually(() => expect(batches).toHaveLength(2));
      expect(batches[1]!.map((d) => [d.body, d.attempts])).toEqual([['a', 2]]);
      expect(batches[1]![0]!.at - batches[0]![0]!.at).toBeGreaterThanOrEqual(290);
      const failed = await runtime.failed('jobs');
      expect(failed).toMatchObject([{ body: 'b', reason: 'bad body', attempts: 1, queue: 'jobs' }]);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(batches).toHaveLength(2);
    });

    it('honours send delays and keeps messages sent before start', async () => {
      const batches: Delivery[][] = [];
      const runtime = await setup({ c: consumer(batches, { batchSize: 1, batchTimeout: '50ms' }) });
      const sent = Date.now();
      await runtime.queue('jobs').send('later', { delay: '500ms' });
      await runtime.queue('jobs').send('now');
      await runtime.start();
      await eventually(() => expect(batches).toHaveLength(2));
      expect(batches.map((b) => b[0]!.body)).toEqual(['now', 'later']);
      expect(batches[1]![0]!.at - sent).toBeGreaterThanOrEqual(480);
    });

    it('counts attempts and moves a message whose retries are spent to the dead-letter queue', async () => {
      const batches: Delivery[][] = [];
      const dead: Delivery[][] = [];
      const runtime = await setup({
        c: consumer(
          batches,
          { batchSize: 2, deadLetterQueue: 'jobs-dlq' },
          () => {
            throw new Error('always failing');
          },
          { retries: 2 },
        ),
        dlq: consumer(dead, { name: 'jobs-dlq', batchSize: 1, batchTimeout: '50ms' }),
      });
      await runtime.start();
      await runtime.queue('jobs').send({ n: 1 });
      await eventually(() => expect(dead).toHaveLength(1));
      expect(batches.map((b) => b.map((d) => d.attempts))).toEqual([[1], [2], [3]]);
      expect(dead[0]).toMatchObject([{ body: { n: 1 }, attempts: 1 }]);
      expect(await runtime.failed('jobs')).toEqual([]);
    });

    it('keeps a message as failed when its retries are spent and there is no dead-letter queue', async () => {
      const batches: Delivery[][] = [];
      const runtime = await setup({
        c: consumer(
          batches,
          { batchSize: 1, batchTimeout: '50ms' },
          () => {
            throw new Error('boom');
          },
          { retries: 1 },
        ),
      });
      await runtime.start();
      await runtime.queue('jobs').send('x');
      await eventually(async () =>
        expect(await runtime.failed('jobs')).toMatchObject([
          { body: 'x', attempts: 2, reason: expect.stringContaining('retries exhausted after 2 deliveries: boom') },
        ]),
      );
      expect(batches.map((b) => b[0]!.attempts)).toEqual([1, 2]);
    });

    it('fires a schedule once per occurrence, at croner occurrences on the engine clock', async () => {
      const events: ScheduledEvent[] = [];
      const runtime = await setup(
        {
          tick: defineTrigger({
            source: { type: 'scheduled', cron: '* * * * *' },
            config: quiet,
            handle: (event) => void events.push(event),
          }),
        },
        scaledClock({ scale: 120 }),
      );
      await runtime.start();
      await eventually(() => expect(events.length).toBeGreaterThanOrEqual(2), 4_000);
      const times = events.map((e) => e.scheduledTime.getTime());
      expect(new Set(times).size).toBe(times.length);
      for (const time of times) expect(time % 60_000).toBe(0);
      expect(times[1]! - times[0]!).toBe(60_000);
      expect(events[0]!.cron).toBe('* * * * *');
    });
  });
}
