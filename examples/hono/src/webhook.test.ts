/**
 * The example's signed webhook over real HTTP: a correct HMAC signature is
 * handled, a wrong one is refused with 401, and an unknown path falls
 * through to the app.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { start, stop } from './test-server.js';

const sign = (body: string, secret = 'dev-webhook-secret') => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

describe('example app: signed webhook', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'framework-webhook-'));
  const running = await start({ dbPath: join(dir, 'app.db') });
  afterAll(async () => {
    await stop(running);
    await rm(dir, { recursive: true, force: true });
  });

  it('accepts a correctly signed delivery and refuses a forged one', async () => {
    const body = JSON.stringify({ event: 'ping', id: 42 });
    const ok = await fetch(`${running.base}/webhooks/demo`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-signature': sign(body) }, body });
    expect(ok.status).toBeLessThan(300);
    const forged = await fetch(`${running.base}/webhooks/demo`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-signature': sign(body, 'wrong') }, body });
    expect(forged.status).toBe(401);
    expect(((await forged.json()) as { error: { code: string } }).error.code).toBe('WEBHOOK_VERIFICATION_FAILED');
    const wrongMethod = await fetch(`${running.base}/webhooks/demo`, { method: 'GET' });
    expect(wrongMethod.status).not.toBe(200);
  });

  it('leaves other paths to the app', async () => {
    const res = await fetch(`${running.base}/`);
    expect(res.status).toBe(200);
  });
});
