/**
 * The adapter conformance suite against the Fastify example app, on a real
 * port with a temporary SQLite file and a seeded admin.
 */
import { createFastifyExample } from '../../../examples/fastify/src/app.js';
import { signDemoWebhook } from '../../../examples/hono/app/triggers/_webhook-signing.js';
import { runAdapterConformance, tempDatabase } from '@framework/testing/conformance';
import { generousLogins } from '@framework/example-shared/testing/logins';

const WEBHOOK_SECRET = process.env.WEBHOOK_SECRET ?? 'dev-webhook-secret';
const admin = { email: 'admin@example.com', password: 'admin-password-1' };

runAdapterConformance(
  'fastify',
  async () => {
    const db = await tempDatabase('conformance-fastify-');
    const example = await createFastifyExample({
      dbPath: db.path,
      admin,
      mailLog: () => {},
      rateLimit: generousLogins(),
    });
    const baseUrl = await example.app.listen({ port: 0, host: '127.0.0.1' });
    return {
      baseUrl,
      async close() {
        await example.close();
        await db.remove();
      },
    };
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
