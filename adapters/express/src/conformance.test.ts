/**
 * The adapter conformance suite against the Express example app, on a real
 * port with a temporary SQLite file and a seeded admin.
 */
import { createExpressExample } from '../../../examples/express/src/app.js';
import { signDemoWebhook } from '../../../examples/hono/app/triggers/_webhook-signing.js';
import { runAdapterConformance, runningApp, tempDatabase } from '@framework/testing/conformance';
import { generousLogins } from '@framework/example-shared/testing/logins';

const WEBHOOK_SECRET = process.env.WEBHOOK_SECRET ?? 'dev-webhook-secret';
const admin = { email: 'admin@example.com', password: 'admin-password-1' };

runAdapterConformance(
  'express',
  async () => {
    const db = await tempDatabase('conformance-express-');
    const example = await createExpressExample({
      dbPath: db.path,
      admin,
      mailLog: () => {},
      rateLimit: generousLogins(),
    });
    const server = example.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    return runningApp(server, async () => {
      await example.close();
      await db.remove();
    });
  },
  {
    api: { path: '/api/me' },
    admin: { path: '/admin', ...admin },
    webhook: {
      path: '/webhooks/demo',
      sign: (body) => signDemoWebhook(body, { secret: WEBHOOK_SECRET }),
    },
  },
);
