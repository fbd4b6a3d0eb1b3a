import { afterEach, describe, expect, it } from 'vitest';
import { defineTrigger } from '../define.js';
import type { StepEvent } from '../types.js';
import { createTestRuntime, type TestRuntime } from './runtime.js';

const JAN_1 = Date.UTC(2025, 0, 1);
let current: TestRuntime | undefined;
afterEach(async () => {
  await current?.stop();
  current = undefined;
});
const testRuntime = (...args: Parameters<typeof createTestRuntime>) => (current = createTestRuntime(...args));

describe('createTestRuntime', () => {
  it('runs a cron, its retry with backoff and a durable step.sleep on the fake clock', async () => {
    const calls: string[] = [];
    const t = testRuntime({
      now: JAN_1,
      triggers: {
        nightly: defineTrigger({
          source: { type: 'scheduled', cron: '0 3 * * *' },
          config: { retries: 2, retryDelay: { type: 'exponential', base: '1m' } },
          handle: async (event, ctx) => {
            calls.push(`nightly ${ctx.attempt} ${event.scheduledTime.toISOString()}`);
            if (ctx.attempt === 1) throw new Error('database busy');
            await ctx.emit('onboard', { user: 'ada' });
            return 'queued';
          },
        }),
        onboard: defineTrigger({
          source: { type: 'webhook', path: '/onboard' },
          handle: async (event: any, ctx) => {
            await ctx.step.run('welcome', () => void calls.push(`welcome ${event.user}`));
            await ctx.step.sleep('a-day', '1d');
            await ctx.step.run('tips', () => void calls.push(`tips ${new Date(t.now()).toISOString()}`));
            return 'done';
          },
        }),
      },
    });
    await t.advanceTime('25h');
    expect(new Date(t.now()).toISOString()).toBe('2025-01-02T01:00:00.000Z');
    expect(calls).toEqual(['nightly 1 2025-01-01T03:00:00.000Z', 'nightly 2 2025-01-01T03:00:00.000Z', 'welcome ada']);
    const [nightly] = t.runsOf('nightly');
    expect(nightly).toMatchObject({ status: 'completed', attempts: 2, result: 'queued' });
    expect(nightly!.logs.some((entry) => entry.message.includes('database busy'))).toBe(true);
    expect(t.runsOf('onboard')).toMatchObject([{ status: 'suspended', input: { user: 'ada' } }]);

    await t.advanceTime('3h'); // the cron fires again at 03:00 on Jan 2; the sleep ends at 03:01
    expect(calls.slice(3)).toEqual([
      'nightly 1 2025-01-02T03:00:00.000Z',
      'tips 2025-01-02T03:01:00.000Z',
      'nightly 2 2025-01-02T03:00:00.000Z',
      'welcome ada',
    ]);
    expect(t.runsOf('onboard')[0]).toMatchObject({ status: 'completed', result: 'done' });
  });

  it('delivers queue retries with backoff, then a dead letter, with runUntilIdle', async () => {
    const seen: Array<{ attempts: number; at: number; body: unknown }> = [];
    const t = testRuntime({
      now: JAN_1,
      triggers: {
        mail: defineTrigger({
          source: { type: 'queue', name: 'mail', batchSize: 1, deadLetterQueue: 'mail-dlq' },
          config: { retries: 2, retryDelay: { type: 'exponential', base: '10s' } },
          handle: (event) => {
            const [message] = event.messages;
            seen.push({ attempts: message!.attempts, at: t.now() - JAN_1, body: message!.body });
            throw new Error('smtp down');
          },
        }),
      },
    });
    const body = { to: 'ada@example.com', at: new Date(JAN_1) };
    await t.queue('mail').send(body);
    body.to = 'changed after send';
    await t.runUntilIdle();
    // batchTimeout 5 s of the batch window first, then 10 s and 20 s of backoff.
    expect(seen.map((s) => [s.attempts, s.at])).toEqual([
      [1, 0],
      [2, 10_000],
      [3, 30_000],
    ]);
    expect(seen[0]!.body).toEqual({ to: 'ada@example.com', at: new Date(JAN_1) });
    const dlq = await t.inspectQueues();
    expect(dlq.find((q) => q.queue === 'mail')).toMatchObject({ deadLettered: 1 });
    expect(t.runsOf('mail')).toMatchObject([{ status: 'failed', attempts: 3, error: 'smtp down' }]);
  });

  it('debounces on the fake clock: only the last body runs, delay after the last send', async () => {
    const bodies: unknown[] = [];
    const t = testRuntime({
      now: JAN_1,
      triggers: {
        reindex: defineTrigger({
          source: { type: 'queue', name: 'reindex', batchSize: 1, batchTimeout: '0ms' },
          config: { debounce: { key: (body: { doc: string }) => body.doc, delay: '5s' } },
          handle: (event) => void bodies.push([event.messages[0]!.body, t.now() - JAN_1]),
        }),
      },
    });
    await t.queue('reindex').send({ doc: 'a', v: 1 });
    await t.advanceTime('3s');
    await t.queue('reindex').send({ doc: 'a', v: 2 });
    await t.advanceTime('4s');
    expect(bodies).toEqual([]);
    await t.advanceTime('1s');
    expect(bodies).toEqual([[{ doc: 'a', v: 2 }, 8_000]]);
  });
});

describe('stopping a test runtime', () => {
  it('aborts work that only waits on the fake clock instead of waiting for it', async () => {
    const t = createTestRuntime({
      now: JAN_1,
      triggers: {
        flaky: defineTrigger({
          source: { type: 'scheduled', cron: '0 * * * *' },
          config: { retries: 5, retryDelay: '1h' },
          handle: () => {
            throw new Error('down');
          },
        }),
      },
    });
    const logs: string[] = [];
    t.onLog((entry) => logs.push(entry.message));
    await t.advanceTime('1h'); // the first attempt failed; its retry waits an hour of fake time
    await t.stop();
    expect(t.runsOf('flaky')).toMatchObject([{ status: 'failed', attempts: 1 }]);
    expect(logs.some((m) => m.includes('scheduled trigger "flaky" failed'))).toBe(true);
  });
});

describe('BullMQ semantics on the fake clock', () => {
  it('delivers delayed messages at their time, in priority then send order', async () => {
    const seen: Array<[string, number]> = [];
    const t = testRuntime({
      now: JAN_1,
      triggers: {
        jobs: defineTrigger({
          source: { type: 'queue', name: 'jobs', batchSize: 1, batchTimeout: '0ms' },
          handle: (event) => void seen.push([event.messages[0]!.body as string, t.now() - JAN_1]),
        }),
      },
    });
    await t.queue('jobs').send('later', { delay: '10m' });
    await t
      .queue('jobs')
      .sendBatch([{ body: 'low', priority: 5 }, { body: 'plain' }, { body: 'high', priority: 1 }, { body: 'plain-2' }]);
    await t.advanceTime('9m');
    expect(seen).toEqual([
      ['plain', 0],
      ['plain-2', 0],
      ['high', 0],
      ['low', 0],
    ]);
    await t.advanceTime('1m');
    expect(seen.at(-1)).toEqual(['later', 600_000]);
  });

  it('explains why steps need one message per run, at definition time for cancelOn', async () => {
    expect(() =>
      defineTrigger({
        source: { type: 'queue', name: 'q', batchSize: 5 },
        config: { cancelOn: [{ event: 'x' }] },
        handle: () => {},
      }),
    ).toThrow(
      "config.cancelOn: cancels one run, and a queue trigger's run is one message: give the source batchSize: 1",
    );
    const t = testRuntime({
      now: JAN_1,
      triggers: {
        batch: defineTrigger({
          source: { type: 'queue', name: 'batch', batchSize: 5, batchTimeout: '1s' },
          config: { retries: 0 },
          handle: async (_event, ctx) => void (await ctx.step.sleep('nap', '1h')),
        }),
      },
    });
    await t.queue('batch').send({});
    await t.runUntilIdle();
    expect(t.runsOf('batch')[0]!.error).toMatch(
      /queue trigger "batch" takes batches of up to 5 messages.*batchSize: 1/,
    );
  });
});

describe('durable steps on the test runtime', () => {
  const waiting = (record: Array<StepEvent<{ invoiceId: string; amount?: number }> | null>) =>
    defineTrigger({
      source: { type: 'queue', name: 'invoices', batchSize: 1, batchTimeout: '0ms' },
      config: { cancelOn: [{ event: 'invoice.voided', match: 'invoiceId' }] },
      handle: async (event, ctx) => {
        const invoice = event.messages[0]!.body as { invoiceId: string };
        const paid = await ctx.step.waitForEvent<{ invoiceId: string; amount?: number }>('paid', {
          event: 'invoice.paid',
          match: 'invoiceId',
          timeout: '7d',
        });
        record.push(paid);
        return paid ? `paid ${invoice.invoiceId}` : `unpaid ${invoice.invoiceId}`;
      },
    });

  it('waitForEvent resumes with the matching event, or null at its timeout', async () => {
    const record: Array<StepEvent<{ invoiceId: string; amount?: number }> | null> = [];
    const t = testRuntime({ now: JAN_1, triggers: { invoices: waiting(record) } });
    await t.queue('invoices').send({ invoiceId: 'inv-1' });
    await t.queue('invoices').send({ invoiceId: 'inv-2' });
    await t.advanceTime('1h');
    expect(record).toEqual([]);
    expect(await t.sendEvent('invoice.paid', { invoiceId: 'inv-9' })).toEqual({ resumed: 0, canceled: 0 });
    expect(await t.sendEvent('invoice.paid', { invoiceId: 'inv-1', amount: 12 })).toEqual({ resumed: 1, canceled: 0 });
    await t.advanceTime('1s');
    expect(record).toEqual([
      { name: 'invoice.paid', data: { invoiceId: 'inv-1', amount: 12 }, id: expect.any(String), ts: JAN_1 + 3_600_000 },
    ]);
    // A second event for the same run finds no waiter.
    expect(await t.sendEvent('invoice.paid', { invoiceId: 'inv-1' })).toEqual({ resumed: 0, canceled: 0 });
    await t.advanceTime('7d');
    expect(record[1]).toBeNull();
    expect(t.runs.map((run) => run.result).sort()).toEqual(['paid inv-1', 'unpaid inv-2']);
  });

  it('cancelOn cancels a waiting run whose input matches; others go on', async () => {
    const record: Array<StepEvent<{ invoiceId: string }> | null> = [];
    const t = testRuntime({ now: JAN_1, triggers: { invoices: waiting(record) } });
    await t.queue('invoices').send({ invoiceId: 'inv-1' }, { id: 'm-1' });
    await t.queue('invoices').send({ invoiceId: 'inv-2' }, { id: 'm-2' });
    await t.advanceTime('1m');
    expect(await t.sendEvent('invoice.voided', { invoiceId: 'inv-1' })).toEqual({ resumed: 0, canceled: 1 });
    await t.advanceTime('8d');
    expect(record).toEqual([null]);
    expect(t.runs.map((run) => [run.key, run.status, run.result])).toEqual([
      ['queue:invoices:m-1', 'suspended', undefined],
      ['queue:invoices:m-2', 'completed', 'unpaid inv-2'],
    ]);
  });

  it('runs steps in parallel, each memoised on its id, and wakes at the earliest suspension', async () => {
    const ran: string[] = [];
    const t = testRuntime({
      now: JAN_1,
      triggers: {
        price: defineTrigger({
          source: { type: 'webhook', path: '/price' },
          handle: (event: any) => event.sku.length * 10,
        }),
        order: defineTrigger({
          source: { type: 'queue', name: 'orders', batchSize: 1, batchTimeout: '0ms' },
          handle: async (_event, ctx) => {
            const [a, b, price] = await Promise.all([
              ctx.step.run('a', () => (ran.push('a'), 'A')),
              ctx.step.run('b', () => (ran.push('b'), 'B')),
              ctx.step.invoke<number>('price', 'price', { sku: 'abc' }),
            ]);
            await Promise.all([
              ctx.step.sleep('short', '1h'),
              ctx.step.sleepUntil('long', new Date(JAN_1 + 86_400_000)),
            ]);
            ran.push(`after sleeps at ${(t.now() - JAN_1) / 3_600_000}h`);
            return `${a}${b}${price}`;
          },
        }),
      },
    });
    await t.queue('orders').send({});
    await t.runUntilIdle();
    expect(ran).toEqual(['a', 'b', 'after sleeps at 24h']);
    expect(t.runsOf('order')[0]).toMatchObject({ status: 'completed', result: 'AB30' });
    // Woken at 1 h (the earliest), suspended again until 24 h: three runs of the handler.
    expect(t.runsOf('order')[0]!.attempts).toBe(3);
    expect(t.runsOf('price')).toMatchObject([{ result: 30, input: { sku: 'abc' } }]);
  });
});
