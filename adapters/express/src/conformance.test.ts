/**
 * The adapter conformance suite against the Express example app, on a real
 * port with a temporary SQLite file and a seeded admin.
 */
import { createHmac } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { createExpressExample } from '../../../examples/express/src/app.js';
import { runAdapterConformance } from '../../../test-support/adapter-conformance.js';

const WEBHOOK_SECRET = process.env.WEBHOOK_SECRET ?? 'dev-webhook-secret';
const admin = { email: 'admin@example.com', password: 'admin-password-1' };

runAdapterConformance(
  'express',
  async () => {
    const dir = await mkdtemp(join(tmpdir(), 'conformance-express-'));
    const example = await createExpressExample({ dbPath: join(dir, 'app.db'), admin, mailLog: () => {} });
    const server = example.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
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
    admin: { path: '/admin', ...admin },
    webhook: {
      path: '/webhooks/demo',
      sign: (body) => ({ 'x-signature': `sha256=${createHmac('sha256', WEBHOOK_SECRET).update(body).digest('hex')}` }),
    },
  },
);
