/**
 * The examples' set-up for frameworks that hand routes a Web `Request`
 * (examples/sveltekit and examples/remix): the shared auth engine, trigger
 * runtime and mailer, configured from environment variables. Sign-up is
 * the kit's own `/auth/signup` (`emailAndPassword`).
 */
import { createFixedWindowStorage, createLoginRateLimiter } from '@framework/auth/rate-limit';
import type { Auth, StorageAdapter } from '@framework/auth';
import type { TriggerRuntime } from '@framework/trigger';
import { seedAdmin } from './admin.js';
import { createExampleAuth, type ExampleAuth } from './example-auth.js';
import { createMailer, type Mailer } from './mailer.js';
import { createExampleRuntime } from './triggers.js';

export { ADMIN_ROLE } from './admin.js';

/** The running example: engine, storage, triggers and mailer. */
export interface WebExample {
  auth: Auth;
  adapter: StorageAdapter;
  triggers: TriggerRuntime;
  mailer: Mailer;
  close(): Promise<void>;
}

/**
 * Builds the example from `env`: `DB_PATH` (SQLite file, default
 * `.data/example.db`), `AUTH_SECRET`, `ADMIN_EMAIL` + `ADMIN_PASSWORD` (an
 * admin seeded at start), `LOGIN_RATE_LIMIT` (sign-ins per 15 minutes per IP
 * and account; default the kit's 5), `MAIL_LOG=off` (silence the dev mailer).
 * Migrates the database and starts the triggers (cron, welcome-mail queue,
 * signed webhook at `/webhooks/demo`); new accounts from `/auth/signup` get the welcome mail.
 */
export async function createWebExample(env: Record<string, string | undefined> = process.env): Promise<WebExample> {
  const dbPath = env.DB_PATH ?? '.data/example.db';
  const limit = Number(env.LOGIN_RATE_LIMIT);
  let welcome: (user: { email?: string | null; name?: string | null }) => unknown = () => {};
  const example: ExampleAuth = await createExampleAuth({
    dbPath,
    onSignUp: (user) => welcome(user),
    ...(env.AUTH_SECRET ? { secret: env.AUTH_SECRET } : {}),
    ...(limit > 0
      ? { rateLimit: { login: createLoginRateLimiter(createFixedWindowStorage(), { limit, window: 900 }) } }
      : {}),
  });
  if (env.ADMIN_EMAIL && env.ADMIN_PASSWORD)
    await seedAdmin(example, { email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD });
  const mailer = createMailer({ filename: dbPath, ...(env.MAIL_LOG === 'off' ? { log: () => {} } : {}) });
  const triggers = createExampleRuntime(example.adapter, mailer);
  await triggers.start();
  welcome = (user) => triggers.queue('welcome-mail').send({ to: user.email, name: user.name });
  return {
    auth: example.auth,
    adapter: example.adapter,
    triggers,
    mailer,
    async close() {
      await triggers.stop({ timeout: '5s' });
      await example.adapter.close?.();
      mailer.close();
    },
  };
}
