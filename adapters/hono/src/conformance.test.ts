/**
 * The adapter conformance suite against the Hono example app, on a real port
 * with a temporary SQLite file.
 */
import { serve, type ServerType } from '@hono/node-server';
import { createExampleApp } from '../../../examples/hono/src/app.js';
import { signDemoWebhook } from '../../../examples/hono/app/triggers/_webhook-signing.js';
import { generousLogins } from '@framework/example-shared/testing/logins';
import { runAdapterConformance, runningApp, tempDatabase } from '@framework/testing/conformance';

const WEBHOOK_SECRET = process.env.WEBHOOK_SECRET ?? 'dev-webhook-secret';

runAdapterConformance(
  'hono',
  async () => {
    const db = await tempDatabase('conformance-hono-');
    const example = await createExampleApp({ dbPath: db.path, mailLog: () => {}, rateLimit: generousLogins() });
    const server = await new Promise<ServerType>((resolve) => {
      const s = serve({ fetch: example.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
    });
    return runningApp(server, async () => {
      await example.close();
      await db.remove();
    });
  },
  {
    api: { path: '/api/me' },
    webhook: {
      path: '/webhooks/demo',
      sign: (body) => signDemoWebhook(body, { secret: WEBHOOK_SECRET }),
    },
  },
);
