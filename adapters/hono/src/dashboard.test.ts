/** mountDashboard on a real Node server: the socket address decides development access; other paths reach the app. */
import { afterAll, describe, expect, it } from 'vitest';
import { Hono } from 'hono';
import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { createTriggerRuntime, defineTrigger } from '@framework/trigger';
import { mountDashboard } from './dashboard.js';

describe('hono mountDashboard', async () => {
  const runtime = createTriggerRuntime({
    env: {},
    triggers: { hook: defineTrigger({ source: { type: 'webhook', path: '/hook' }, handle: () => {} }) },
  });
  const app = new Hono();
  const dashboard = mountDashboard(app, { runtime, mode: 'development' });
  app.get('/_framework-not', (c) => c.text('app'));
  app.notFound((c) => c.text('app 404', 404));
  const server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  afterAll(async () => {
    dashboard.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('serves the dashboard to a loopback client over TCP', async () => {
    const res = await fetch(`${base}/_framework/`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('data-trigger="hook"');
    expect((await fetch(`${base}/_framework`)).status).toBe(200);
  });

  it('refuses a forwarded request (403) and lets unknown and neighbouring paths fall through', async () => {
    expect((await fetch(`${base}/_framework/`, { headers: { 'x-forwarded-for': '203.0.113.1' } })).status).toBe(403);
    const unknown = await fetch(`${base}/_framework/nope`, { headers: { accept: 'text/html' } });
    expect(unknown.status).toBe(404);
    expect(await (await fetch(`${base}/_framework-not`)).text()).toBe('app');
  });

  it('answers 403 when the socket peer is not loopback (in-process request without an address)', async () => {
    const res = await app.request('http://localhost/_framework/', { headers: { accept: 'application/json' } });
    expect(res.status).toBe(403);
  });
});
