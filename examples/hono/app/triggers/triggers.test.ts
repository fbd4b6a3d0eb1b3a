import { createTriggerRuntime, loadTriggersFromDir } from '@framework/trigger';
import { mockQueueEvent, mockScheduledEvent, mockTriggerContext } from '@framework/trigger/testing';
import { createMemoryAdapter } from '@framework/auth';
import { describe, expect, it, vi } from 'vitest';
import dailyCleanup from './daily-cleanup.js';
import sendWelcomeMail from './send-welcome-mail.js';
import { signDemoWebhook } from './_webhook-signing.js';

describe('example app triggers', () => {
  it('daily-cleanup purges sessions and verification tokens expired at the scheduled time', async () => {
    const adapter = createMemoryAdapter();
    const user = await adapter.createUser({ email: 'cleanup@example.com' });
    const scheduledTime = new Date('2025-05-01T03:00:00Z');
    const offset = (ms: number) => new Date(scheduledTime.getTime() + ms);
    await adapter.createSession({
      id: 'gone',
      tokenHash: 'h',
      userId: user.id,
      expires: offset(-1),
      createdAt: offset(-9e6),
    });
    await adapter.createSession({
      id: 'kept',
      tokenHash: 'h',
      userId: user.id,
      expires: offset(1),
      createdAt: offset(-9e6),
    });
    const stale = { identifier: 'webauthn-challenge', tokenHash: 'a'.repeat(64), expires: offset(0) };
    const live = { identifier: 'cleanup@example.com', tokenHash: 'b'.repeat(64), expires: offset(60_000) };
    await adapter.createVerificationToken(stale);
    await adapter.createVerificationToken(live);
    const info = vi.spyOn(console, 'info').mockImplementation(() => {});
    try {
      await dailyCleanup.handle(
        mockScheduledEvent({ scheduledTime }),
        mockTriggerContext({ env: { auth: { adapter } } }),
      );
      expect(info.mock.calls[0]?.[0]).toMatch(/purged 1 expired session\(s\) and 1 verification token\(s\)/);
    } finally {
      info.mockRestore();
    }
    expect(await adapter.getSessionAndUser('gone')).toBeNull();
    expect(await adapter.getSessionAndUser('kept')).not.toBeNull();
    expect(await adapter.useVerificationToken(stale)).toBeNull();
    expect(await adapter.useVerificationToken(live)).toStrictEqual(live);
  });

  it('send-welcome-mail mails each recipient and dead-letters messages without one', async () => {
    const sent: unknown[] = [];
    const ctx = mockTriggerContext({ env: { mailer: { send: async (mail: unknown) => void sent.push(mail) } } });
    const event = mockQueueEvent({
      queue: 'welcome-mail',
      messages: [{ body: { to: 'ada@example.com', name: 'Ada' } }, { body: {} }],
    });
    await sendWelcomeMail.handle(event, ctx);
    expect(sent).toEqual([{ to: 'ada@example.com', subject: 'Welcome!', text: 'Hello Ada, your account is ready.' }]);
    expect(event.messages.map((m) => m.outcome)).toEqual(['ack', 'deadLetter']);
  });

  it('signed-webhook accepts the documented Standard Webhooks signature, once per id, and refuses others', async () => {
    const triggers = await loadTriggersFromDir(new URL('.', import.meta.url).pathname);
    expect(Object.keys(triggers)).toEqual([
      'avatar-uploaded',
      'daily-cleanup',
      'inbound-note',
      'send-welcome-mail',
      'signed-webhook',
    ]);
    const runtime = createTriggerRuntime({ triggers, env: {} });
    const body = '{"hello":"world"}';
    const post = (headers: Record<string, string>) =>
      runtime.fetch(
        new Request('http://localhost/webhooks/demo', {
          method: 'POST',
          body,
          headers: { 'content-type': 'application/json', ...headers },
        }),
      );
    const signed = signDemoWebhook(body);
    expect((await post(signed))?.status).toBe(200);
    expect(await (await post(signed))?.json()).toMatchObject({ duplicate: true });
    expect((await post({ ...signDemoWebhook(body), 'webhook-signature': 'v1,AAAA' }))?.status).toBe(401);
    expect((await post({ 'x-signature': 'sha256=00' }))?.status).toBe(401);
    await runtime.stop();
  });
});
