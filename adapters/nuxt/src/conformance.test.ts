/**
 * The adapter conformance suite against a plain h3 app built on the adapter (the examples' shared engine, pages
 * and webhook), on a real port with a temporary SQLite file and a seeded admin. The Nuxt example runs the same
 * suite against its built Nitro server (examples/nuxt).
 */
import { defineEventHandler, setResponseHeader } from 'h3';
import { runAdapterConformance, tempDatabase } from '@framework/testing/conformance';
import { createViews } from '@framework/example-shared/views';
import { ADMIN_ROLE, createWebExample } from '@framework/example-shared/web-example';
import { signDemoWebhook } from '../../../examples/hono/app/triggers/_webhook-signing.js';
import { getSession, requireAuth, requireRole, toWebRequest } from './index.js';
import { startH3App } from './h3-server.js';

const admin = { email: 'admin@example.com', password: 'admin-password-1' };
const WEBHOOK_SECRET = process.env.WEBHOOK_SECRET ?? 'dev-webhook-secret';

runAdapterConformance(
  'nuxt (h3)',
  async () => {
    const db = await tempDatabase('conformance-nuxt-');
    const example = await createWebExample({
      DB_PATH: db.path,
      ADMIN_EMAIL: admin.email,
      ADMIN_PASSWORD: admin.password,
      LOGIN_RATE_LIMIT: '1000',
      MAIL_LOG: 'off',
    });
    const views = createViews({});
    const html = (event: Parameters<typeof setResponseHeader>[0], body: string) => {
      setResponseHeader(event, 'content-type', 'text/html; charset=utf-8');
      return body;
    };
    const app = await startH3App(example.auth, [
      [
        'get',
        '/',
        defineEventHandler(async (event) => {
          const { user, session } = await getSession(event);
          return html(event, views.homePage(user, session));
        }),
      ],
      [
        'get',
        '/protected',
        defineEventHandler(async (event) => html(event, views.protectedPage(await requireAuth(event)))),
      ],
      [
        'get',
        '/admin',
        defineEventHandler(async (event) => html(event, views.adminPage(await requireRole(event, ADMIN_ROLE)))),
      ],
      [
        'get',
        '/api/me',
        defineEventHandler(async (event) => {
          const user = await requireAuth(event, { throwError: true });
          return { id: user.id, email: user.email, name: user.name, role: user.role ?? null };
        }),
      ],
      [
        'all',
        '/webhooks/**',
        defineEventHandler(async (event) => (await example.triggers.fetch(toWebRequest(event))) ?? undefined),
      ],
    ]);
    return {
      baseUrl: app.baseUrl,
      async close() {
        await app.close();
        await example.close();
        await db.remove();
      },
    };
  },
  {
    api: { path: '/api/me' },
    admin: { path: '/admin', ...admin },
    webhook: { path: '/webhooks/demo', sign: (body) => signDemoWebhook(body, { secret: WEBHOOK_SECRET }) },
  },
);
