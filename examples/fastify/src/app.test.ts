/**
 * Real-server test of the Fastify example: the shared server-example flows (sign-up and its welcome mail, sign-in
 * through the kit's page, the protected and admin pages, a restart on the same SQLite file, sign-out), and the
 * preHandler guards of its API routes.
 */
import { expect, it } from 'vitest';
import { cookieClient, csrfFrom } from '@framework/testing/conformance';
import { generousLogins } from '@framework/example-shared/testing/logins';
import { EXAMPLE_ADMIN, describeServerExample } from '@framework/example-shared/testing/server-example';
import { createFastifyExample } from './app.js';

describeServerExample(
  'Fastify',
  async (dbPath) => {
    const example = await createFastifyExample({
      dbPath,
      admin: EXAMPLE_ADMIN,
      mailLog: () => {},
      rateLimit: generousLogins(),
    });
    await example.triggers.start();
    const base = await example.app.listen({ port: 0, host: '127.0.0.1' });
    return { base, mailer: example.mailer, stop: () => example.close() };
  },
  ({ running, person }) => {
    it('guards the API routes with preHandlers: 401 signed out, 403 without the role, 200 for the admin', async () => {
      const json = { headers: { accept: 'application/json' } };
      const out = await cookieClient(running().base).fetch('/api/session', json);
      expect([out.status, await out.json()]).toMatchObject([401, { error: { code: 'UNAUTHENTICATED' } }]);
      expect((await person().fetch('/api/session', json)).status).toBe(200);
      const denied = await person().fetch('/api/admin', json);
      expect([denied.status, await denied.json()]).toMatchObject([403, { error: { code: 'FORBIDDEN' } }]);
      const boss = cookieClient(running().base);
      const page = await boss.fetch('/auth/signin');
      await boss.form('/auth/callback/credentials', { csrfToken: csrfFrom(await page.text()), ...EXAMPLE_ADMIN });
      expect(await (await boss.fetch('/api/admin', json)).json()).toEqual({ admin: EXAMPLE_ADMIN.email });
    });
  },
);
