/**
 * The example's signed webhook (Standard Webhooks), in-process through @framework/testing: a signed delivery is
 * handled once; the same delivery again (a replay or a redelivery) answers 200 `duplicate` without running the
 * handler; a stale or future timestamp, a captured signature under a new id or a body-only HMAC is refused with
 * 401; an unknown path falls through to the app.
 */
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { createHmac } from 'node:crypto';
import { createTestContext } from '@framework/testing';
import { createExampleApp } from './app.js';
import { signDemoWebhook } from '../app/triggers/_webhook-signing.js';

const json = { 'content-type': 'application/json' };
const now = () => Math.floor(Date.now() / 1000);
const codeOf = async (res: Response) => ((await res.json()) as { error: { code: string } }).error.code;

describe('example app: signed webhook', async () => {
  const ctx = await createTestContext({ app: await createExampleApp({ dbPath: ':memory:', mailLog: () => {} }) });
  afterAll(() => ctx.cleanup());
  afterEach(() => vi.restoreAllMocks());

  /** Posts `body` with `headers`; counts the handler's runs by its log line. */
  const deliver = (body: string, headers: Record<string, string>) =>
    ctx.fetch('/webhooks/demo', { method: 'POST', headers: { ...json, ...headers }, body });
  const runs = () => {
    const info = vi.spyOn(console, 'info').mockImplementation(() => {});
    return () => info.mock.calls.filter(([line]) => String(line).startsWith('[signed-webhook] received')).length;
  };

  it('accepts a correctly signed delivery and refuses a forged one', async () => {
    const count = runs();
    const body = JSON.stringify({ event: 'ping', id: 42 });
    const ok = await deliver(body, signDemoWebhook(body));
    expect(ok.status).toBe(200);
    expect(count()).toBe(1);
    const forged = await deliver(body, signDemoWebhook(body, { secret: 'wrong' }));
    expect(forged.status).toBe(401);
    expect(await codeOf(forged)).toBe('WEBHOOK_VERIFICATION_FAILED');
    const wrongMethod = await ctx.fetch('/webhooks/demo', { method: 'GET' });
    expect(wrongMethod.status).not.toBe(200);
    expect(count()).toBe(1);
  });

  it('runs a delivery once: the same id again answers 200 duplicate without running the handler', async () => {
    const count = runs();
    const body = JSON.stringify({ event: 'invoice.paid', amount: 100 });
    const headers = signDemoWebhook(body);
    expect((await deliver(body, headers)).status).toBe(200);
    for (let replay = 0; replay < 3; replay++) {
      const again = await deliver(body, headers);
      expect(again.status).toBe(200);
      expect(await again.json()).toMatchObject({ ok: true, duplicate: true });
    }
    expect(count()).toBe(1);
  });

  it('refuses a captured signature under a new id, and a body-only HMAC', async () => {
    const count = runs();
    const body = JSON.stringify({ event: 'invoice.paid', amount: 100 });
    const captured = signDemoWebhook(body);
    expect((await deliver(body, captured)).status).toBe(200);
    const renamed = await deliver(body, { ...captured, 'webhook-id': `${captured['webhook-id']}-again` });
    expect(renamed.status).toBe(401);
    const bodyOnly = `sha256=${createHmac('sha256', 'dev-webhook-secret').update(body).digest('hex')}`;
    const legacy = await deliver(body, { 'x-signature': bodyOnly });
    expect(legacy.status).toBe(401);
    expect(count()).toBe(1);
  });

  it('refuses a timestamp more than 5 minutes old or ahead, even correctly signed under a fresh id', async () => {
    const count = runs();
    const body = JSON.stringify({ event: 'ping' });
    for (const timestamp of [now() - 301, now() + 301, now() - 86_400, 0]) {
      const res = await deliver(body, signDemoWebhook(body, { timestamp }));
      expect(res.status, String(timestamp)).toBe(401);
      expect(await codeOf(res)).toBe('WEBHOOK_VERIFICATION_FAILED');
    }
    expect((await deliver(body, signDemoWebhook(body, { timestamp: now() - 240 }))).status).toBe(200);
    expect(count()).toBe(1);
  });

  it('leaves other paths to the app', async () => {
    const res = await ctx.fetch('/');
    expect(res.status).toBe(200);
  });
});
