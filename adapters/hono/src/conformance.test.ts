/**
 * The adapter conformance suite against the Hono example app, on a real port
 * with a temporary SQLite file.
 *
 * Until the example serves it itself, this file adds `/api/me` (a JSON route
 * using `requireAuth({throwError: true})`) before the first request.
 */
import { createHmac } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { requireAuth } from '@framework/auth';
import { createExampleApp } from '../../../examples/hono/src/app.js';
import { runAdapterConformance } from '../../../test-support/adapter-conformance.js';

const WEBHOOK_SECRET = process.env.WEBHOOK_SECRET ?? 'dev-webhook-secret';

runAdapterConformance(
  'hono',
  async () => {
    const dir = await mkdtemp(join(tmpdir(), 'conformance-hono-'));
    const example = await createExampleApp({ dbPath: join(dir, 'app.db'), mailLog: () => {} });
    example.app.get('/api/me', (c) => c.json({ email: requireAuth({ throwError: true }).email }));
    const server = await new Promise<ServerType>((resolve) => {
      const s = serve({ fetch: example.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
    });
    const { port } = server.address() as AddressInfo;
    return {
      baseUrl: `http://127.0.0.1:${port}`,
      async close() {
        await new Promise<void>((resolve) => server.close(() => resolve()));
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
