/**
 * The example Hono app: credentials sign-in with sessions in D1, a register
 * route (CSRF-checked, rate-limited, body-limited), the signed webhook, and a
 * page that shows who is signed in.
 * @module
 */
import { Hono } from 'hono';
import { AuthError, createAuth, credentials, passwordAccounts, readFormBody } from '@framework/auth';
import { createFixedWindowStorage, createLoginRateLimiter } from '@framework/auth/rate-limit';
import { authSession, mountAuth, mountTriggers, securityHeaders, type AuthVariables } from '@framework/hono';
import { createD1Adapter } from '@framework/auth';
import type { WorkerEnv } from './env.js';
import { createTriggers, migrateEvents } from './triggers.js';

/** The largest registration body read: 16 KiB. */
const MAX_REGISTER_BYTES = 16 * 1024;

/** The app and what must run once before it serves (migrations). */
export interface WorkerApp {
  app: Hono<{ Variables: AuthVariables }>;
  ready: Promise<void>;
}

/**
 * Builds the app over the Worker's bindings.
 * @example
 * ```ts
 * const { app, ready } = createApp(env);
 * await ready;
 * return app.fetch(request, env, ctx);
 * ```
 */
export function createApp(env: WorkerEnv): WorkerApp {
  const adapter = createD1Adapter({ binding: env.DB });
  const passwords = passwordAccounts(adapter);
  const auth = createAuth({
    session: { strategy: 'database' },
    secret: env.AUTH_SECRET,
    adapter,
    // Secure unless explicitly turned off: workerd sets no NODE_ENV.
    cookies: { sessionToken: { options: { secure: env.COOKIE_SECURE !== 'false' } } },
    providers: [
      credentials({
        credentials: {
          email: { label: 'Email', type: 'email', required: true },
          password: { label: 'Password', type: 'password', required: true },
        },
        authorize: passwords.authorize,
      }),
    ],
  });

  // Registrations per client IP (and per email) per hour, counted in this isolate's memory.
  const registrations = createLoginRateLimiter(createFixedWindowStorage(), {
    limit: Number(env.REGISTER_RATE_LIMIT) > 0 ? Number(env.REGISTER_RATE_LIMIT) : 5,
    window: 3600,
    prefix: 'example:register',
  });

  const app = new Hono<{ Variables: AuthVariables }>();
  app.use('*', securityHeaders());
  app.use('/webhooks/*', mountTriggers(createTriggers(env)));
  // Workers have no socket address: Cloudflare's edge names the client (rate limits key on it).
  mountAuth(app, auth, { clientIp: (c) => c.req.header('cf-connecting-ip') });
  app.use('*', authSession(auth));

  app.get('/', (c) => c.json({ user: c.get('user') ?? null, runtime: navigator.userAgent }));
  // JSON or a form, with the kit's CSRF token (`GET /auth/csrf`) as `csrfToken`.
  app.post('/register', async (c) => {
    const ip = c.req.header('cf-connecting-ip');
    const verdict = await registrations.check(c.req.raw, ip ? { ip } : {});
    if (!verdict.success) return verdict.response!;
    const body = await readFormBody(c.req.raw, MAX_REGISTER_BYTES);
    await auth.csrf.verify(c.req.raw, body.csrfToken);
    const user = await passwords.register({
      email: body.email ?? '',
      password: body.password ?? '',
      ...(body.name ? { name: body.name } : {}),
    });
    return c.json({ id: user.id, email: user.email }, 201);
  });
  // The last word on errors: the kit's errors as `{error: {code, message}}`, anything else a 500 without its stack.
  app.onError((error, c) => {
    if (error instanceof AuthError) return c.json(error.toJSON(), error.status as 400);
    console.error(error);
    return c.json({ error: { code: 'INTERNAL_ERROR', message: 'Internal Server Error' } }, 500);
  });

  const ready = Promise.all([adapter.migrate(), migrateEvents(env)]).then(() => undefined);
  return { app, ready };
}
