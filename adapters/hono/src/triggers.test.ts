import { describe, expect, it } from 'vitest';
import { Hono } from 'hono';
import { createTriggerRuntime, defineTrigger } from '@framework/trigger';
import { mountTriggers } from './triggers.js';

describe('mountTriggers', () => {
  it('serves webhooks from the runtime, falls through otherwise, and reports requests to tail triggers without their query string', async () => {
    const received: unknown[] = [];
    const tails: unknown[] = [];
    const runtime = createTriggerRuntime({
      name: 'web',
      env: {},
      triggers: {
        hook: defineTrigger({
          source: { type: 'webhook', path: '/hooks/in' },
          handle: (event) => void received.push(event.payload),
        }),
        watch: defineTrigger({
          source: { type: 'tail', workers: ['web'] },
          handle: (event) => void tails.push(...event.logs),
        }),
      },
    });
    await runtime.start();
    try {
      const app = new Hono();
      app.use('*', mountTriggers(runtime));
      app.get('/hello', (c) => c.text('hi'));
      const hook = await app.request('/hooks/in', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"a":1}',
      });
      expect(hook.status).toBeLessThan(300);
      expect(received).toEqual([{ a: 1 }]);
      expect(await (await app.request('/hello?token=secret-token&code=secret-code')).text()).toBe('hi');
      await runtime.drain();
      const deadline = Date.now() + 5000;
      while (!tails.some((l) => (l as { url?: string }).url?.endsWith('/hello')) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
        await runtime.drain();
      }
      expect(tails).toContainEqual(
        expect.objectContaining({ method: 'GET', status: 200, url: 'http://localhost/hello' }),
      );
      expect(JSON.stringify(tails)).not.toContain('secret');
    } finally {
      await runtime.stop({ timeout: '1s' });
    }
  });
});
