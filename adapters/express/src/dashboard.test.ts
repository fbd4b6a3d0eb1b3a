/** dashboardRouter over real HTTP: loopback access in development, a CSRF-checked POST, other paths to the app. */
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, describe, expect, it } from 'vitest';
import { createTriggerRuntime, defineTrigger } from '@framework/trigger';
import { dashboardRouter } from './dashboard.js';

describe('express dashboardRouter', async () => {
  const runtime = createTriggerRuntime({
    env: {},
    triggers: { hook: defineTrigger({ source: { type: 'webhook', path: '/hook' }, handle: () => {} }) },
  });
  const app = express();
  app.use(dashboardRouter({ runtime, mode: 'development' }));
  app.use(express.urlencoded({ extended: false }));
  app.get('/', (_req, res) => void res.send('app'));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('serves the dashboard to a loopback client and refuses a forwarded one', async () => {
    const res = await fetch(`${base}/_framework/`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('data-trigger="hook"');
    expect((await fetch(`${base}/_framework/`, { headers: { forwarded: 'for=203.0.113.1' } })).status).toBe(403);
    expect(await (await fetch(`${base}/`)).text()).toBe('app');
  });

  it('reads the form body of a POST itself (403 without a CSRF token, not a hang)', async () => {
    const res = await fetch(`${base}/_framework/queues/hook/replay`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: base, accept: 'application/json' },
      body: 'id=x',
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ error: { code: 'CSRF_TOKEN_INVALID' } });
  });
});
