/**
 * The engine conformance suite: one set of vitest tests that every
 * `TriggerEngine` must pass, run through a real runtime with real timers and
 * short durations. `memory.conformance.test.ts` and
 * `bullmq.conformance.test.ts` run it.
 */
import { afterEach, describe, expect, it } from 'vitest';
// The runtime by its public name, so the copy of this suite bundled into `@framework/testing` uses the app's
// `@framework/trigger` instead of carrying a second runtime.
import {
  createTriggerRuntime,
  defineTrigger,
  scaledClock,
  type EngineClock,
  type QueueEvent,
  type QueueSource,
  type ScheduledEvent,
  type TriggerConfig,
  type TriggerDefinition,
  type TriggerEngine,
  type TriggerRuntime,
} from '@framework/trigger';

/** Creates a fresh, isolated engine; `cleanup` removes whatever it stored. */
export type EngineFactory = (options: {
  clock?: EngineClock;
}) => Promise<{ engine: TriggerEngine; cleanup(): Promise<void> }>;

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

/** Counts runs at once, overall and per key: wrap each run in `track(key, fn)`. */
export function concurrencyProbe() {
  const perKey = new Map<string, number>();
  const stats = { running: 0, peak: 0, keyPeak: 0, handled: 0 };
  return {
    stats,
    async track(key: string, run: () => Promise<unknown>): Promise<void> {
      stats.running++;
      perKey.set(key, (perKey.get(key) ?? 0) + 1);
      stats.peak = Math.max(stats.peak, stats.running);
      stats.keyPeak = Math.max(stats.keyPeak, perKey.get(key)!);
      try {
        await run();
      } finally {
        perKey.set(key, perKey.get(key)! - 1);
        stats.running--;
        stats.handled++;
      }
    },
  };
}

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

    it('deduplicates sends by id while the message is stored and for the idempotency TTL after its ack', async () => {
      const batches: Delivery[][] = [];
      const runtime = await setup({ c: consumer(batches, { batchSize: 10, batchTimeout: '50ms' }) });
      const producer = runtime.queue('jobs');
      expect(await producer.send('first', { id: 'order-1' })).toBe('order-1');
      expect(await producer.send('second', { id: 'order-1' })).toBe('order-1');
      expect(
        await producer.sendBatch([
          { body: 'third', id: 'order-1' },
          { body: 'other', id: 'order-2' },
        ]),
      ).toEqual(['order-1', 'order-2']);
      await runtime.start();
      await eventually(() =>
        expect(
          batches
            .flat()
            .map((d) => d.body)
            .sort(),
        ).toEqual(['first', 'other']),
      );
      // Acked, the id stays taken (24 h by default): the send adds nothing, the run keeps its record.
      await eventually(async () => expect(await runtime.getRun('order-1')).toMatchObject({ status: 'completed' }));
      expect(await producer.send('again', { id: 'order-1' })).toBe('order-1');
      // Cleaning the completed runs frees it.
      expect(await runtime.clean('c', { state: 'completed' })).toContain('order-1');
      await producer.send('again', { id: 'order-1' });
      await eventually(() => expect(batches.flat().map((d) => d.body)).toContain('again'));
      expect(batches.flat().map((d) => d.body)).not.toContain('second');
      await expect(producer.send('x', { id: 'has:colon' })).rejects.toMatchObject({ code: 'INVALID_MESSAGE_OPTIONS' });
      await expect(producer.send('x', { id: '42' })).rejects.toMatchObject({ code: 'INVALID_MESSAGE_OPTIONS' });
    });

    it('cancels a message by id while it waits, and only then', async () => {
      const batches: Delivery[][] = [];
      const runtime = await setup({ c: consumer(batches, { batchSize: 1, batchTimeout: '20ms' }) });
      const producer = runtime.queue('jobs');
      await runtime.start();
      await producer.send('cancelled', { id: 'c-1', delay: '1500ms' });
      await producer.send('kept', { id: 'c-2', delay: '1500ms' });
      expect(await producer.cancel('c-1')).toBe(true);
      expect(await producer.cancel('c-1')).toBe(false);
      expect(await producer.cancel('unknown')).toBe(false);
      await eventually(() => expect(batches.flat().map((d) => d.body)).toEqual(['kept']));
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await producer.cancel('c-2')).toBe(false);
      expect(batches.flat().map((d) => d.body)).toEqual(['kept']);
    });

    it('delivers messages without a priority first, then priority 1, 2, …', async () => {
      const batches: Delivery[][] = [];
      const runtime = await setup({ c: consumer(batches, { batchSize: 1, batchTimeout: '20ms' }) });
      const producer = runtime.queue('jobs');
      await producer.send('low', { priority: 10 });
      await producer.send('high', { priority: 1 });
      await producer.send('plain');
      await producer.send('middle', { priority: 5 });
      await runtime.start();
      await eventually(() => expect(batches).toHaveLength(4));
      expect(batches.map((b) => b[0]!.body)).toEqual(['plain', 'high', 'middle', 'low']);
      await expect(producer.send('x', { priority: 0 })).rejects.toMatchObject({ code: 'INVALID_MESSAGE_OPTIONS' });
    });

    it('replays failed messages by id or all, with their delivery count reset', async () => {
      const batches: Delivery[][] = [];
      let failing = true;
      const runtime = await setup({
        c: consumer(
          batches,
          { batchSize: 1, batchTimeout: '20ms' },
          () => {
            if (failing) throw new Error('down');
          },
          { retries: 0 },
        ),
      });
      const producer = runtime.queue('jobs');
      await runtime.start();
      await producer.send('a', { id: 'r-a' });
      await producer.send('b', { id: 'r-b' });
      await eventually(async () => expect(await runtime.failed('jobs')).toHaveLength(2));
      failing = false;
      expect(await runtime.replay('c', { id: 'r-b' })).toEqual(['r-b']);
      await eventually(() => expect(batches.at(-1)).toMatchObject([{ body: 'b', attempts: 1 }]));
      expect((await runtime.failed('jobs')).map((m) => m.id)).toEqual(['r-a']);
      expect(await runtime.replay('c', { all: true })).toEqual(['r-a']);
      await eventually(() => expect(batches.at(-1)).toMatchObject([{ body: 'a', attempts: 1 }]));
      expect(await runtime.failed('jobs')).toEqual([]);
      expect(await runtime.replay('c', { all: true })).toEqual([]);
    });

    it('replays messages waiting in the dead-letter queue back to their queue', async () => {
      const batches: Delivery[][] = [];
      let failing = true;
      const runtime = await setup({
        c: consumer(
          batches,
          { batchSize: 1, batchTimeout: '20ms', deadLetterQueue: 'jobs-dlq' },
          () => {
            if (failing) throw new Error('down');
          },
          { retries: 0 },
        ),
      });
      await runtime.start();
      await runtime.queue('jobs').send({ n: 1 });
      await runtime.queue('jobs').send({ n: 2 });
      await eventually(() => expect(batches).toHaveLength(2));
      await new Promise((resolve) => setTimeout(resolve, 200));
      failing = false;
      const ids = await runtime.replay('c', {
        filter: (m) => (m.body as { n: number }).n === 2 && m.reason.includes('down'),
      });
      expect(ids).toHaveLength(1);
      await eventually(() => expect(batches.at(-1)).toMatchObject([{ body: { n: 2 }, attempts: 1 }]));
      expect(await runtime.replay('c', { all: true })).toHaveLength(1);
      await eventually(() => expect(batches.at(-1)).toMatchObject([{ body: { n: 1 }, attempts: 1 }]));
      expect(await runtime.replay('c', { all: true })).toEqual([]);
    });

    it('inspects queue counts with failed and dead-lettered messages, and discards them', async () => {
      const batches: Delivery[][] = [];
      const failing = () => {
        throw new Error('down');
      };
      const runtime = await setup({
        c: consumer(batches, { batchSize: 1, batchTimeout: '20ms' }, failing, { retries: 0 }),
        d: consumer(
          batches,
          { name: 'other', batchSize: 1, batchTimeout: '20ms', deadLetterQueue: 'other-dlq' },
          failing,
          { retries: 0 },
        ),
      });
      await runtime.start();
      await runtime.queue('jobs').send('a', { id: 'i-a' });
      await runtime.queue('other').send('b');
      await runtime.queue('other').send('later', { delay: '1h' });
      await eventually(async () => {
        const [jobs, other] = await runtime.inspectQueues();
        expect(jobs).toMatchObject({
          queue: 'jobs',
          trigger: 'c',
          failed: 1,
          deadLettered: 0,
          inFlight: 0,
          waiting: 0,
        });
        expect(other).toMatchObject({
          queue: 'other',
          trigger: 'd',
          deadLetterQueue: 'other-dlq',
          failed: 0,
          deadLettered: 1,
          waiting: 1,
        });
      });
      const [jobs, other] = await runtime.inspectQueues();
      expect(jobs!.messages).toMatchObject([{ id: 'i-a', queue: 'jobs', body: 'a', attempts: 1 }]);
      expect(other!.messages).toMatchObject([{ queue: 'other', body: 'b' }]);
      expect(await runtime.discard('c', { id: 'i-a' })).toEqual(['i-a']);
      expect(await runtime.discard('d', { all: true })).toHaveLength(1);
      const after = await runtime.inspectQueues();
      expect(after.map((q) => [q.failed, q.deadLettered, q.messages.length])).toEqual([
        [0, 0, 0],
        [0, 0, 0],
      ]);
      expect(await runtime.replay('d', { all: true })).toEqual([]);
    });

    it('delivers a copy of the body: later changes by the sender or the handler do not leak', async () => {
      const seen: unknown[] = [];
      const runtime = await setup({
        c: defineTrigger({
          source: { type: 'queue', name: 'jobs', batchSize: 1, batchTimeout: '20ms', retryDelay: '50ms' },
          config: { ...quiet, retries: 1 },
          handle: (event, ctx) => {
            const body = event.messages[0]!.body as { items: string[] };
            seen.push(structuredClone(body));
            body.items.push('handler');
            if (ctx.attempt === 1) throw new Error('once');
          },
        }),
      });
      const body = { items: ['sent'] };
      await runtime.queue('jobs').send(body);
      body.items.push('sender');
      await runtime.start();
      await eventually(() => expect(seen).toHaveLength(2));
      expect(seen).toEqual([{ items: ['sent'] }, { items: ['sent'] }]);
    });

    it('runs up to config.concurrency batches at once, and one at a time per concurrencyKey', async () => {
      const { stats, track } = concurrencyProbe();
      const tenantOf = (event: QueueEvent) => (event.messages[0]!.body as { tenant: string }).tenant;
      const runtime = await setup({
        c: defineTrigger({
          source: { type: 'queue', name: 'jobs', batchSize: 1, batchTimeout: '10ms' },
          config: { ...quiet, concurrency: 3, concurrencyKey: tenantOf },
          handle: (event) => track(tenantOf(event), () => new Promise((resolve) => setTimeout(resolve, 150))),
        }),
      });
      await runtime
        .queue('jobs')
        .sendBatch(['a', 'b', 'c', 'd', 'e', 'a', 'a', 'b'].map((tenant) => ({ body: { tenant } })));
      await runtime.start();
      await eventually(() => expect(stats.handled).toBe(8), 8_000);
      expect(stats.peak).toBe(3);
      expect(stats.keyPeak).toBe(1);
    });

    it('rateLimit: at most limit messages per window', async () => {
      const batches: Delivery[][] = [];
      const runtime = await setup({
        c: consumer(batches, { batchSize: 10, batchTimeout: '20ms' }, () => {}, {
          rateLimit: { limit: 3, window: '600ms' },
        }),
      });
      await runtime.queue('jobs').sendBatch([1, 2, 3, 4, 5, 6, 7].map((body) => ({ body })));
      await runtime.start();
      await eventually(() => expect(batches.flat()).toHaveLength(7), 8_000);
      const times = batches.flatMap((b) => b.map((d) => d.at)).sort((a, b) => a - b);
      // Any 4 consecutive deliveries span more than one window.
      for (let i = 3; i < times.length; i++) expect(times[i]! - times[i - 3]!).toBeGreaterThanOrEqual(450);
    });

    it('debounce: sends with one key collapse to the last body, delivered after the delay', async () => {
      const batches: Delivery[][] = [];
      const runtime = await setup({
        c: consumer(batches, { batchSize: 10, batchTimeout: '20ms' }, () => {}, {
          debounce: { key: (body: { doc: string }) => body.doc, delay: '400ms' },
        }),
      });
      await runtime.start();
      const producer = runtime.queue('jobs');
      const started = Date.now();
      await producer.send({ doc: 'a', v: 1 });
      await producer.send({ doc: 'b', v: 1 });
      await new Promise((resolve) => setTimeout(resolve, 150));
      await producer.send({ doc: 'a', v: 2 });
      await producer.send({ doc: 'a', v: 3 });
      await eventually(() => expect(batches.flat()).toHaveLength(2), 5_000);
      await new Promise((resolve) => setTimeout(resolve, 500));
      const bodies = batches.flat().map((d) => d.body as { doc: string; v: number });
      expect(bodies.sort((x, y) => x.doc.localeCompare(y.doc))).toEqual([
        { doc: 'a', v: 3 },
        { doc: 'b', v: 1 },
      ]);
      const a = batches.flat().find((d) => (d.body as { doc: string }).doc === 'a')!;
      expect(a.at - started).toBeGreaterThanOrEqual(540);
    });

    it('durable steps: a retried run skips its completed steps and gets their stored results', async () => {
      const calls = { one: 0, two: 0 };
      const results: unknown[] = [];
      const runtime = await setup({
        c: defineTrigger({
          source: { type: 'queue', name: 'jobs', batchSize: 1, batchTimeout: '10ms', retryDelay: '50ms' },
          config: { ...quiet, retries: 2 },
          handle: async (_event, ctx) => {
            const first = await ctx.step.run('one', () => ({ n: ++calls.one, at: new Date(0) }));
            await ctx.step.run('two', () => {
              calls.two++;
              if (ctx.attempt === 1) throw new Error('step two failed once');
            });
            results.push(first);
          },
        }),
      });
      await runtime.start();
      await runtime.queue('jobs').send('x', { id: 'run-1' });
      await eventually(() => expect(results).toHaveLength(1));
      expect(calls).toEqual({ one: 1, two: 2 });
      // Results are stored as JSON, on the first attempt too.
      expect(results).toEqual([{ n: 1, at: '1970-01-01T00:00:00.000Z' }]);
      // Once acked, the run's steps are forgotten: with its completed record cleaned, the same id runs them again.
      await eventually(async () => expect(await runtime.getRun('run-1')).toMatchObject({ status: 'completed' }));
      expect(await runtime.clean('c', { state: 'completed' })).toContain('run-1');
      await runtime.queue('jobs').send('y', { id: 'run-1' });
      await eventually(() => expect(results).toHaveLength(2));
      expect(calls.one).toBe(2);
    });

    it('durable steps: sleep suspends the run without counting a delivery, then resumes after the sleep', async () => {
      const calls = { before: 0, after: 0 };
      const seen: Array<{ attempt: number; at: number }> = [];
      const runtime = await setup({
        c: defineTrigger({
          source: { type: 'queue', name: 'jobs', batchSize: 1, batchTimeout: '10ms' },
          config: { ...quiet, retries: 0 },
          handle: async (_event, ctx) => {
            seen.push({ attempt: ctx.attempt, at: Date.now() });
            await ctx.step.run('before', () => void calls.before++);
            await ctx.step.sleep('nap', '400ms');
            await ctx.step.run('after', () => void calls.after++);
          },
        }),
      });
      await runtime.start();
      await runtime.queue('jobs').send('x');
      await eventually(() => expect(calls.after).toBe(1), 5_000);
      expect(calls.before).toBe(1);
      // retries: 0 and still delivered twice: the sleep's delivery did not count.
      expect(seen.map((s) => s.attempt)).toEqual([1, 1]);
      expect(seen[1]!.at - seen[0]!.at).toBeGreaterThanOrEqual(380);
      expect(await runtime.failed('jobs')).toEqual([]);
    });

    it.each([
      ['skip', 1],
      ['queue', 1],
      ['allow', 2],
    ] as const)('overlap %s: a slow schedule runs at most %i cop(ies) at once', async (overlap, peakAllowed) => {
      const stats = { running: 0, peak: 0, runs: 0 };
      const runtime = await setup(
        {
          slow: defineTrigger({
            // One occurrence every 250 ms of real time, each run takes 600 ms.
            source: { type: 'scheduled', cron: '* * * * *', overlap },
            config: { ...quiet, retries: 0 },
            handle: async () => {
              stats.runs++;
              stats.running++;
              stats.peak = Math.max(stats.peak, stats.running);
              await new Promise((resolve) => setTimeout(resolve, 600));
              stats.running--;
            },
          }),
        },
        scaledClock({ scale: 240 }),
      );
      const skipped: string[] = [];
      runtime.onLog((entry) => {
        if (entry.message.includes('skipped')) skipped.push(entry.message);
      });
      await runtime.start();
      await eventually(() => expect(stats.runs).toBeGreaterThanOrEqual(3), 5_000);
      if (overlap === 'allow') expect(stats.peak).toBeGreaterThanOrEqual(peakAllowed);
      else expect(stats.peak).toBe(peakAllowed);
      if (overlap === 'skip') expect(skipped.length).toBeGreaterThan(0);
      else expect(skipped).toEqual([]);
    });
  });
}
