/**
 * bull-board beside the dashboard, on a real server with real BullMQ queues in Redis: same access rules,
 * same-origin JSON for actions.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { Hono } from 'hono';
import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { Queue, type ConnectionOptions } from 'bullmq';
import { createClient } from 'redis';
import { REDIS_URL, serviceAvailable } from '../../../test-support/services.js';
import { mountDashboard } from './dashboard.js';
import { mountBullBoard } from './bull-board.js';

const redis = await serviceAvailable('redis');

describe.skipIf(!redis)('hono mountBullBoard', async () => {
  const name = `bb-${randomUUID()}`;
  const client = createClient({ url: REDIS_URL });
  await client.connect();
  const queue = new Queue(name, { connection: client as unknown as ConnectionOptions, prefix: 'framework-test' });
  await queue.add('message', { body: 1 });
  const app = new Hono();
  const dashboard = mountDashboard(app, { mode: 'development', bullBoardPath: '/_framework/bull-board' });
  mountBullBoard(app, dashboard, { queues: [queue] });
  const server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await queue.obliterate({ force: true });
    await queue.close();
    await client.quit();
  });

  it('serves bull-board and its API to a loopback client, and the dashboard links to it', async () => {
    const page = await fetch(`${base}/_framework/bull-board`);
    expect(page.status).toBe(200);
    const script = /src="(static\/js\/main\.[^"]+)"/.exec(await page.text())?.[1];
    expect(script).toBeTruthy();
    expect((await fetch(new URL(script!, `${base}/_framework/bull-board/`))).status).toBe(200);
    const api = (await (await fetch(`${base}/_framework/bull-board/api/queues`)).json()) as {
      queues: Array<{ name: string }>;
    };
    expect(api.queues.map((q) => q.name)).toContain(name);
    expect(await (await fetch(`${base}/_framework/`)).text()).toContain('href="/_framework/bull-board"');
  });

  it('refuses a forwarded client (403) and a cross-site or non-JSON action (403)', async () => {
    expect(
      (await fetch(`${base}/_framework/bull-board/api/queues`, { headers: { 'x-forwarded-for': '203.0.113.1' } }))
        .status,
    ).toBe(403);
    const action = `${base}/_framework/bull-board/api/queues/${encodeURIComponent(name)}/pause`;
    expect(
      (
        await fetch(action, {
          method: 'PUT',
          headers: { origin: 'http://evil.example', 'content-type': 'application/json' },
          body: '{}',
        })
      ).status,
    ).toBe(403);
    expect(
      (await fetch(action, { method: 'PUT', headers: { origin: base, 'content-type': 'text/plain' }, body: '{}' }))
        .status,
    ).toBe(403);
    expect(await queue.isPaused()).toBe(false);
    const ok = await fetch(action, {
      method: 'PUT',
      headers: { origin: base, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(ok.status).toBeLessThan(300);
    expect(await queue.isPaused()).toBe(true);
  });
});
