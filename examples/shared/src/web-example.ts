/**
 * The examples' set-up for frameworks that hand routes a Web `Request`
 * (examples/sveltekit and examples/remix): the shared auth engine, trigger
 * runtime and mailer, configured from environment variables, plus the
 * registration page as Web Responses.
 */
import { createFixedWindowStorage, createLoginRateLimiter } from '@framework/auth/rate-limit';
import type { Auth, StorageAdapter } from '@framework/auth';
import type { TriggerRuntime } from '@framework/trigger';
import { seedAdmin } from './admin.js';
import { createExampleAuth, type ExampleAuth } from './example-auth.js';
import { createMailer, type Mailer } from './mailer.js';
import { readRegistrationForm, registration, registrationForm, type PageResult } from './registration.js';
import { createExampleRuntime } from './triggers.js';

export { ADMIN_ROLE } from './admin.js';

/** The running example: engine, storage, triggers, mailer, and the registration page. */
export interface WebExample {
  auth: Auth;
  adapter: StorageAdapter;
  triggers: TriggerRuntime;
  mailer: Mailer;
  /** `GET /register`: the shared form with a CSRF token. */
  registerForm(request: Request): Promise<Response>;
  /** `POST /register`: 303 to the sign-in page, or the form again with 400 / 403 / 409 / 429 (413 over 16 KiB, read through the kit's streaming limiter); `info.ip` feeds the registration limit. */
  register(request: Request, info?: { ip?: string | undefined }): Promise<Response>;
  close(): Promise<void>;
}

/** A shared {@link PageResult} as a Web `Response`. */
export function pageResponse(page: PageResult): Response {
  const headers = new Headers(page.headers);
  if (page.redirect) headers.set('location', page.redirect);
  else headers.set('content-type', 'text/html; charset=utf-8');
  return new Response(page.redirect ? null : page.html, { status: page.status, headers });
}

/**
 * Builds the example from `env`: `DB_PATH` (SQLite file, default
 * `.data/example.db`), `AUTH_SECRET`, `ADMIN_EMAIL` + `ADMIN_PASSWORD` (an
 * admin seeded at start), `LOGIN_RATE_LIMIT` (sign-ins per 15 minutes per IP
 * and account; default the kit's 5), `MAIL_LOG=off` (silence the dev mailer).
 * Migrates the database and starts the triggers (cron, welcome-mail queue,
 * signed webhook at `/webhooks/demo`).
 */
export async function createWebExample(env: Record<string, string | undefined> = process.env): Promise<WebExample> {
  const dbPath = env.DB_PATH ?? '.data/example.db';
  const limit = Number(env.LOGIN_RATE_LIMIT);
  const example: ExampleAuth = await createExampleAuth({
    dbPath,
    ...(env.AUTH_SECRET ? { secret: env.AUTH_SECRET } : {}),
    ...(limit > 0 ? { rateLimit: { login: createLoginRateLimiter(createFixedWindowStorage(), { limit, window: 900 }) } } : {}),
  });
  if (env.ADMIN_EMAIL && env.ADMIN_PASSWORD) await seedAdmin(example, { email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD });
  const mailer = createMailer({ filename: dbPath, ...(env.MAIL_LOG === 'off' ? { log: () => {} } : {}) });
  const triggers = createExampleRuntime(example.adapter, mailer);
  await triggers.start();
  const welcome = (user: { email?: string | null; name?: string | null }) => triggers.queue('welcome-mail').send({ to: user.email, name: user.name });
  return {
    auth: example.auth,
    adapter: example.adapter,
    triggers,
    mailer,
    registerForm: async (request) => pageResponse(await registrationForm(example.auth, request)),
    async register(request, info = {}) {
      const fields = await readRegistrationForm(request);
      if (fields instanceof Response) return fields;
      return pageResponse(await registration(example, request, fields, welcome, info));
    },
    async close() {
      await triggers.stop({ timeout: '5s' });
      await example.adapter.close?.();
      mailer.close();
    },
  };
}
