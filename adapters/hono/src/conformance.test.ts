/**
 * The adapter conformance suite against the Hono example app, on a real port
 * with a temporary SQLite file.
 *
 * Until the example serves them itself, this file adds two things before the
 * first request: `/api/me` (a JSON route using `requireAuth({throwError:
 * true})`) and the example's signed webhook through the trigger runtime.
 */
import { createHmac } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { requireAuth } from '@framework/auth';
import { createTriggerRuntime } from '@framework/trigger';
import { createExampleApp } from '../../../examples/hono/src/app.js';
import signedWebhook from '../../../examples/hono/app/triggers/signed-webhook.js';
import { runAdapterConformance } from '../../../test-support/adapter-conformance.js';

const WEBHOOK_SECRET = process.env.WEBHOOK_SECRET ?? 'dev-webhook-secret';

runAdapterConformance(
  'hono',
  async () => {
    const dir = await mkdtemp(join(tmpdir(), 'conformance-hono-'));
    const example = await createExampleApp({ dbPath: join(dir, 'app.db') });
    const runtime = createTriggerRuntime({ triggers: { 'signed-webhook': signedWebhook }, env: {} });
    example.app.get('/api/me', (c) => c.json({ email: requireAuth({ throwError: true }).email }));
    example.app.use('*', async (c, next) => (await runtime.fetch(c.req.raw)) ?? next());
    const server = await new Promise<ServerType>((resolve) => {
      const s = serve({ fetch: example.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
    });
    const { port } = server.address() as AddressInfo;
    return {
      baseUrl: `http://127.0.0.1:${port}`,
      async close() {
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await runtime.stop();
        await example.close();
        await rm(dir, { recursive: true, force: true });
      },
    };
  },
  {
    api: { path: '/api/me' },
    webhook: {
      path: '/webhooks/demo',
      sign: (body) => ({ 'x-signature': `sha256=${createHmac('sha256', WEBHOOK_SECRET).update(body).digest('hex')}` }),
    },
  },
);
