import { describe, expect, it } from 'vitest';
import { defineTrigger } from '../define.js';
import {
  mockEmailEvent,
  mockObjectStoreEvent,
  mockQueueEvent,
  mockQueueMessage,
  mockScheduledEvent,
  mockSqlDbEvent,
  mockTailEvent,
  mockTriggerContext,
  mockWebhookEvent,
} from '../testing.js';

describe('trigger mocks', () => {
  it('queue messages record calls; the first call is the outcome', async () => {
    const consumer = defineTrigger({
      source: { type: 'queue', name: 'jobs' },
      handle: (event) => {
        const [first, second, third] = event.messages;
        first!.ack();
        second!.retry({ delay: '10s' });
        second!.ack();
        third!.deadLetter('invalid');
      },
    });
    const event = mockQueueEvent({
      queue: 'jobs',
      messages: [{ body: 1 }, { body: 2, attempts: 3 }, mockQueueMessage({ id: 'x' })],
    });
    await consumer.handle(event, mockTriggerContext());
    expect(event.messages.map((m) => m.outcome)).toEqual(['ack', 'retry', 'deadLetter']);
    expect(event.messages[1]!.calls).toEqual([{ method: 'retry', options: { delay: '10s' } }, { method: 'ack' }]);
    expect(event.messages[1]!.attempts).toBe(3);
    expect(event.messages[2]).toMatchObject({
      id: 'x',
      body: {},
      calls: [{ method: 'deadLetter', reason: 'invalid' }],
    });
  });

  it('the context records emits, waitUntil promises and noRetry', async () => {
    const definition = defineTrigger({
      source: { type: 'scheduled', cron: '0 0 * * *' },
      handle: async (event, ctx) => {
        ctx.waitUntil(Promise.resolve('cleanup'));
        ctx.waitUntil(Promise.reject(new Error('late')));
        await ctx.emit('report', { at: event.scheduledTime.toISOString(), env: ctx.env.region });
        ctx.noRetry();
      },
    });
    const ctx = mockTriggerContext({ env: { region: 'eu' }, traceId: 'f'.repeat(32) });
    expect(ctx.noRetryCalled).toBe(false);
    await definition.handle(mockScheduledEvent({ scheduledTime: new Date('2025-01-01T00:00:00Z') }), ctx);
    expect(ctx.emitted).toEqual([{ trigger: 'report', payload: { at: '2025-01-01T00:00:00.000Z', env: 'eu' } }]);
    expect(ctx.noRetryCalled).toBe(true);
    expect((await ctx.settle()).map((r) => r.status)).toEqual(['fulfilled', 'rejected']);
    expect(ctx).toMatchObject({ traceId: 'f'.repeat(32), attempt: 1 });
    ctx.abort('timeout');
    expect(ctx.signal.aborted).toBe(true);
  });

  it('fills every event kind with valid values', async () => {
    const webhook = mockWebhookEvent({ payload: { id: 7 }, headers: { 'x-event': 'created' } });
    expect(await webhook.request.json()).toEqual({ id: 7 });
    expect(webhook).toMatchObject({ payload: { id: 7 }, verified: true });
    expect(webhook.headers.get('content-type')).toBe('application/json');

    const email = mockEmailEvent({ subject: 'Hello', text: 'Body' });
    expect(await new Response(email.raw).text()).toContain('Subject: Hello\r\n\r\nBody');
    expect(email).toMatchObject({ from: 'sender@example.com', html: null, attachments: [] });

    expect(mockObjectStoreEvent({ object: { key: 'a.png' } }).object).toMatchObject({ key: 'a.png', size: 0 });
    expect(mockSqlDbEvent({ operation: 'DELETE' })).toMatchObject({ database: 'DB', operation: 'DELETE' });
    expect(mockTailEvent({ logs: [{ outcome: 'exception' }] }).logs[0]).toMatchObject({
      outcome: 'exception',
      logs: [],
    });
  });
});
