import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { defineTrigger } from '../define.js';
import type { LogEntry, QueueEvent, QueueSource, TriggerConfig } from '../types.js';
import { createTriggerRuntime } from './create.js';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
});
afterEach(() => {
  vi.useRealTimers();
});

type Handler = (event: QueueEvent, attempt: number) => void | Promise<void>;

function setup(handler: Handler, source: Partial<QueueSource> = {}, config: TriggerConfig = {}, extra = {}) {
  const batches: Array<Array<{ body: unknown; attempts: number }>> = [];
  const runtime = createTriggerRuntime({
    env: {},
    triggers: {
      consumer: defineTrigger({
        source: { type: 'queue', name: 'jobs', ...source },
        config: { retryDelay: '1m', ...config },
        handle: (event, ctx) => {
          batches.push(event.messages.map((m) => ({ body: m.body, attempts: m.attempts })));
          return handler(event, ctx.attempt);
        },
      }),
      ...extra,
    },
  });
  return { runtime, batches, producer: runtime.queue('jobs') };
}

/**
 * Sends a, b, c as one batch to an app whose handler retried a (5 s), dead-lettered b and acked c on the first
 * attempt: a comes back alone, b is dead-lettered once, nothing else runs.
 */
async function expectRetriedAndDeadLettered({ runtime, batches, producer }: ReturnType<typeof setup>): Promise<void> {
  await runtime.start();
  await producer.sendBatch([{ body: 'a' }, { body: 'b' }, { body: 'c' }]);
  await vi.advanceTimersByTimeAsync(0);
  await vi.advanceTimersByTimeAsync(5_000 + 5_000); // redelivery after 5s, then batch window
  expect(batches[1]).toEqual([{ body: 'a', attempts: 2 }]);
  expect(await runtime.failed('jobs')).toMatchObject([{ body: 'b', reason: 'bad body', attempts: 1, queue: 'jobs' }]);
  await runtime.stop();
  expect(batches).toHaveLength(2);
}

describe('queue consumer (memory engine)', () => {
  it('delivers a full batch at once and a partial batch after batchTimeout', async () => {
    const { runtime, batches, producer } = setup(() => {}, { batchSize: 3, batchTimeout: '2s' });
    await runtime.start();
    await producer.sendBatch([{ body: 1 }, { body: 2 }, { body: 3 }, { body: 4 }]);
    await vi.advanceTimersByTimeAsync(0);
    expect(batches).toEqual([
      [
        { body: 1, attempts: 1 },
        { body: 2, attempts: 1 },
        { body: 3, attempts: 1 },
      ],
    ]);
    await vi.advanceTimersByTimeAsync(1_999);
    expect(batches).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(batches[1]).toEqual([{ body: 4, attempts: 1 }]);
    await runtime.stop();
  });

  it('holds messages until start and honours send delays', async () => {
    const { runtime, batches, producer } = setup(() => {}, { batchSize: 1 });
    await producer.send('early');
    await producer.send('later', { delay: '30s' });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(batches).toEqual([]);
    await runtime.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(batches.map((b) => b[0]!.body)).toEqual(['early', 'later']);
    await runtime.stop();
  });

  it('applies the first explicit call per message and acks the rest on return', async () => {
    const app = setup(
      (event, attempt) => {
        if (attempt > 1) return;
        const [a, b, c] = event.messages;
        a!.retry({ delay: '5s' });
        a!.ack(); // ignored: retry came first
        b!.deadLetter('bad body');
        b!.retry(); // ignored
        void c; // acked on return
      },
      { batchSize: 3 },
    );
    await expectRetriedAndDeadLettered(app);
  });

  it('takes decisions called detached from their message (`const { ack } = message`)', async () => {
    const app = setup(
      (event, attempt) => {
        if (attempt > 1) return;
        const [a, b, c] = event.messages;
        const { retry } = a!;
        const { deadLetter } = b!;
        const { ack } = c!;
        retry({ delay: '5s' });
        deadLetter('bad body');
        ack();
        throw new Error('after the decisions');
      },
      { batchSize: 3 },
    );
    await expectRetriedAndDeadLettered(app);
  });

  it('dead-letters at once after ctx.noRetry() called detached (`const { noRetry } = ctx`)', async () => {
    const seen: number[] = [];
    const runtime = createTriggerRuntime({
      env: {},
      triggers: {
        once: defineTrigger({
          source: { type: 'queue', name: 'once', batchSize: 1 },
          config: { retries: 3, retryDelay: '1s' },
          handle: (_event, ctx) => {
            seen.push(ctx.attempt);
            const { noRetry } = ctx;
            noRetry();
            throw new Error('fatal');
          },
        }),
      },
    });
    await runtime.start();
    await runtime.queue('once').send('x');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(seen).toEqual([1]);
    expect(await runtime.failed('once')).toMatchObject([{ body: 'x', attempts: 1 }]);
    await runtime.stop();
  });

  it('retries unacked messages after retryDelay when the handler throws', async () => {
    const { runtime, batches, producer } = setup(
      (event, attempt) => {
        event.messages[0]!.ack();
        if (attempt === 1) throw new Error('flaky');
      },
      { batchSize: 2, retryDelay: '30s' },
    );
    await runtime.start();
    await producer.sendBatch([{ body: 'acked' }, { body: 'again' }]);
    await vi.advanceTimersByTimeAsync(0);
    await vi.advanceTimersByTimeAsync(29_999);
    expect(batches).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1 + 5_000);
    expect(batches[1]).toEqual([{ body: 'again', attempts: 2 }]);
    expect(await runtime.failed('jobs')).toEqual([]);
    await runtime.stop();
  });

  it('keeps messages as failed and logs them after retries are spent', async () => {
    const { runtime, batches, producer } = setup(
      () => {
        throw new Error('always');
      },
      { batchSize: 1, retryDelay: '1s' },
      { retries: 2 },
    );
    const logs: LogEntry[] = [];
    runtime.onLog((entry) => logs.push(entry));
    await runtime.start();
    await producer.send({ n: 1 });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(batches.map((b) => b[0]!.attempts)).toEqual([1, 2, 3]);
    const [failed] = await runtime.failed('jobs');
    expect(failed).toMatchObject({ body: { n: 1 }, attempts: 3 });
    expect(failed!.reason).toContain('retries exhausted after 3 deliveries: always');
    expect(logs.some((l) => l.level === 'error' && l.message.includes("kept in runtime.failed('jobs')"))).toBe(true);
    await runtime.stop();
  });

  it('moves spent messages to the dead-letter queue, where its consumer receives them', async () => {
    const dead: unknown[] = [];
    const { runtime, producer } = setup(
      (_event) => {
        throw new Error('nope');
      },
      { batchSize: 1, retryDelay: '1s', deadLetterQueue: 'jobs-dlq' },
      { retries: 1 },
      {
        dlq: defineTrigger({
          source: { type: 'queue', name: 'jobs-dlq', batchSize: 1 },
          handle: (event) => void dead.push(...event.messages.map((m) => [m.body, m.attempts])),
        }),
      },
    );
    await runtime.start();
    await producer.send('poison');
    await vi.advanceTimersByTimeAsync(5_000);
    expect(dead).toEqual([['poison', 1]]);
    expect(await runtime.failed('jobs')).toEqual([]);
    await runtime.stop();
  });

  it('dead-letters undecided messages at once after noRetry()', async () => {
    const runtime = createTriggerRuntime({
      env: {},
      triggers: {
        consumer: defineTrigger({
          source: { type: 'queue', name: 'jobs', batchSize: 1 },
          handle: (_event, ctx) => {
            ctx.noRetry();
            throw new Error('fatal');
          },
        }),
      },
    });
    await runtime.start();
    await runtime.queue('jobs').send('x');
    await vi.advanceTimersByTimeAsync(0);
    expect(await runtime.failed('jobs')).toMatchObject([{ body: 'x', attempts: 1, reason: 'fatal' }]);
    await runtime.stop();
  });

  it('delivers messages emitted to a queue trigger with the emitter trace id', async () => {
    const traces: string[] = [];
    const runtime = createTriggerRuntime({
      env: {},
      triggers: {
        signup: defineTrigger({
          source: { type: 'email' },
          handle: async (_e, ctx) => {
            traces.push(ctx.traceId);
            await ctx.emit('mailer', { to: 'ada@example.com' });
          },
        }),
        mailer: defineTrigger({
          source: { type: 'queue', name: 'welcome', batchSize: 1 },
          handle: (event, ctx) => {
            traces.push(ctx.traceId);
            expect(event.messages[0]!.body).toEqual({ to: 'ada@example.com' });
          },
        }),
      },
    });
    await runtime.start();
    await runtime.dispatch('signup', {});
    await vi.advanceTimersByTimeAsync(0);
    expect(traces).toHaveLength(2);
    expect(traces[1]).toBe(traces[0]);
    await runtime.stop();
  });

  it('limits sendBatch to maxBatchSize', async () => {
    const runtime = createTriggerRuntime({ env: {}, triggers: {}, limits: { maxBatchSize: 2 } });
    await expect(runtime.queue('q').sendBatch([{ body: 1 }, { body: 2 }, { body: 3 }])).rejects.toMatchObject({
      code: 'TRIGGER_LIMIT_EXCEEDED',
    });
  });

  it('stop() keeps its deadline while a batch hangs, and the batch is retried later', async () => {
    vi.useRealTimers();
    const { runtime, producer } = setup(() => new Promise(() => {}), { batchSize: 1 }, { timeout: '10m' });
    await runtime.start();
    await producer.send('stuck');
    await new Promise((r) => setTimeout(r, 10));
    const started = Date.now();
    await runtime.stop({ timeout: '30ms' });
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(await runtime.failed('jobs')).toEqual([]);
  });
});
