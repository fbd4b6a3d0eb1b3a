/**
 * Real-server test of the Express example: the shared server-example flows (sign-up and its welcome mail, sign-in
 * through the kit's page, the protected and admin pages, a restart on the same SQLite file, sign-out).
 */
import type { AddressInfo } from 'node:net';
import { generousLogins } from '@framework/example-shared/testing/logins';
import { EXAMPLE_ADMIN, describeServerExample } from '@framework/example-shared/testing/server-example';
import { createExpressExample } from './app.js';

describeServerExample('Express', async (dbPath) => {
  const example = await createExpressExample({
    dbPath,
    admin: EXAMPLE_ADMIN,
    mailLog: () => {},
    rateLimit: generousLogins(),
  });
  await example.triggers.start();
  const server = example.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    mailer: example.mailer,
    async stop() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await example.close();
    },
  };
});
