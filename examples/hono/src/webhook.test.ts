/**
 * The example's signed webhook, in-process through @framework/testing: a
 * correct HMAC signature is handled, a wrong one is refused with 401, and an
 * unknown path falls through to the app.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import { createTestContext } from '@framework/testing';
import { createExampleApp } from './app.js';

const sign = (body: string, secret = 'dev-webhook-secret') =>
  `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

describe('example app: signed webhook', async () => {
  const ctx = await createTestContext({ app: await createExampleApp({ dbPath: ':memory:', mailLog: () => {} }) });
  afterAll(() => ctx.cleanup());

  it('accepts a correctly signed delivery and refuses a forged one', async () => {
    const body = JSON.stringify({ event: 'ping', id: 42 });
    const ok = await ctx.fetch('/webhooks/demo', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-signature': sign(body) },
      body,
    });
    expect(ok.status).toBeLessThan(300);
    const forged = await ctx.fetch('/webhooks/demo', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-signature': sign(body, 'wrong') },
      body,
    });
    expect(forged.status).toBe(401);
    expect(((await forged.json()) as { error: { code: string } }).error.code).toBe('WEBHOOK_VERIFICATION_FAILED');
    const wrongMethod = await ctx.fetch('/webhooks/demo', { method: 'GET' });
    expect(wrongMethod.status).not.toBe(200);
  });

  it('leaves other paths to the app', async () => {
    const res = await ctx.fetch('/');
    expect(res.status).toBe(200);
  });
});
