import { describe, expect, it, vi } from 'vitest';
import {
  defineTrigger,
  TriggerError,
  type QueueSource,
  type TriggerContext,
  type TriggerDefinition,
} from '@framework/trigger';
import { createMockMessage } from './mocks/message.js';
import { toQueueHandler } from './queue-handler.js';

const consumer = (handle: (event: any, ctx: TriggerContext) => unknown): TriggerDefinition<QueueSource> =>
  defineTrigger({ source: { type: 'queue', name: 'mail' }, handle: handle as never }) as TriggerDefinition<QueueSource>;

describe('toQueueHandler', () => {
  it('hands the batch, env and context to the handler and acks undecided messages', async () => {
    const seen = vi.fn();
    const handler = toQueueHandler(
      defineTrigger({
        source: { type: 'queue', name: 'mail' },
        handle: (event, ctx) => {
          seen(
            event.queue,
            event.messages.map((m) => m.body),
            ctx.env,
            ctx.attempt,
            ctx.trigger,
          );
          event.messages[1]!.retry({ delay: '5s' });
        },
      }),
    );
    const messages = [createMockMessage({ body: 1 }), createMockMessage({ body: 2, attempts: 3 })];
    await handler.queue(messages, { MAILER: 'x' }, {});
    expect(seen).toHaveBeenCalledWith('mail', [1, 2], { MAILER: 'x' }, 3, 'mail');
    expect(messages[0]!.ack).toHaveBeenCalledOnce();
    expect(messages[1]!.retry).toHaveBeenCalledWith({ delay: '5s' });
    expect(messages[1]!.ack).not.toHaveBeenCalled();
  });

  it('accepts a batch object and forwards waitUntil and emit to ctx', async () => {
    const waitUntil = vi.fn();
    const emit = vi.fn(async () => {});
    const handler = toQueueHandler(
      consumer(async (event: { queue: string }, ctx) => {
        ctx.waitUntil(Promise.resolve(event.queue));
        await ctx.emit('audit' as never, { ok: true } as never);
      }),
    );
    const message = createMockMessage({ body: {} });
    await handler.queue({ queue: 'mail-eu', messages: [message] }, {}, { waitUntil, emit });
    expect(waitUntil).toHaveBeenCalledOnce();
    expect(emit).toHaveBeenCalledWith('audit', { ok: true });
  });

  it('retries undecided messages when the handler throws, and rethrows', async () => {
    const handler = toQueueHandler(
      consumer((event: { messages: Array<{ ack(): void }> }) => {
        event.messages[0]!.ack();
        throw new Error('smtp down');
      }),
    );
    const [done, pending] = [createMockMessage({ body: 1 }), createMockMessage({ body: 2 })];
    await expect(handler.queue([done, pending])).rejects.toThrow('smtp down');
    expect(done.ack).toHaveBeenCalledOnce();
    expect(done.retry).not.toHaveBeenCalled();
    expect(pending.retry).toHaveBeenCalledOnce();
  });

  it('dead-letters undecided messages after noRetry() or a non-retryable error', async () => {
    const viaNoRetry = toQueueHandler(
      consumer((_event, ctx) => {
        ctx.noRetry();
        throw new Error('bad payload');
      }),
    );
    const first = createMockMessage({ body: 1 });
    await expect(viaNoRetry.queue([first])).rejects.toThrow();
    expect(first.deadLetter).toHaveBeenCalledWith('bad payload');
    const viaError = toQueueHandler(
      consumer(() => {
        throw new TriggerError('invalid', { code: 'INVALID', retryable: false });
      }),
    );
    const second = createMockMessage({ body: 2 });
    await expect(viaError.queue([second])).rejects.toThrow('invalid');
    expect(second.deadLetter).toHaveBeenCalledOnce();
    expect(second.retry).not.toHaveBeenCalled();
  });

  it('forwards only the first decision on a message', async () => {
    const handler = toQueueHandler(
      consumer((event: { messages: Array<{ ack(): void; retry(): void }> }) => {
        event.messages[0]!.ack();
        event.messages[0]!.retry();
      }),
    );
    const message = createMockMessage({ body: 1 });
    await handler.queue([message]);
    expect(message.ack).toHaveBeenCalledOnce();
    expect(message.retry).not.toHaveBeenCalled();
  });

  it('refuses a definition that is not a queue consumer', () => {
    const cron = defineTrigger({ source: { type: 'scheduled', cron: '0 3 * * *' }, handle: () => {} });
    expect(() => toQueueHandler(cron as never)).toThrow(
      /expected a queue trigger definition, got source type "scheduled"/,
    );
  });
});
