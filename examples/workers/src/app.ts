/**
 * The example Hono app: email + password accounts with sessions in D1 (the kit's own sign-up at `/auth/signup`
 * and sign-in page), the signed webhook, and a route that shows who is signed in.
 * @module
 */
import { Hono } from 'hono';
import { AuthError, createAuth } from '@framework/auth';
import { createFixedWindowStorage, createLoginRateLimiter } from '@framework/auth/rate-limit';
import { authSession, mountAuth, mountTriggers, securityHeaders, type AuthVariables } from '@framework/hono';
import { createD1Adapter } from '@framework/auth';
import type { WorkerEnv } from './env.js';
import { createTriggers, migrateEvents } from './triggers.js';

/** The largest auth request body read: 16 KiB. */
const MAX_AUTH_BODY_BYTES = 16 * 1024;

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
  // Sign-ups and sign-in attempts per client IP per 15 minutes (REGISTER_RATE_LIMIT, default the kit's 50),
  // counted in this isolate's memory; failed sign-ins also per (IP, account), 5 by default.
  const perIp = Number(env.REGISTER_RATE_LIMIT);
  const login = createLoginRateLimiter(createFixedWindowStorage(), perIp > 0 ? { ipLimit: perIp } : {});
  const auth = createAuth({
    session: { strategy: 'database' },
    secret: env.AUTH_SECRET,
    adapter,
    rateLimit: { login },
    // Auth request bodies (sign-up, sign-in) are read up to 16 KiB, streamed (chunked too); more answers 413.
    maxBodySize: MAX_AUTH_BODY_BYTES,
    // Secure unless explicitly turned off: workerd sets no NODE_ENV.
    cookies: { sessionToken: { options: { secure: env.COOKIE_SECURE !== 'false' } } },
    // The kit's email + password accounts: the credentials provider, /auth/signup (CSRF-checked, on the login
    // limiter, body-limited) and change password.
    emailAndPassword: {},
  });

  const app = new Hono<{ Variables: AuthVariables }>();
  app.use('*', securityHeaders());
  app.use('/webhooks/*', mountTriggers(createTriggers(env)));
  // Workers have no socket address: Cloudflare's edge names the client (rate limits key on it).
  mountAuth(app, auth, { clientIp: (c) => c.req.header('cf-connecting-ip') });
  app.use('*', authSession(auth));

  app.get('/', (c) => c.json({ user: c.get('user') ?? null, runtime: navigator.userAgent }));
  // The last word on errors: the kit's errors as `{error: {code, message}}`, anything else a 500 without its stack.
  app.onError((error, c) => {
    if (error instanceof AuthError) return c.json(error.toJSON(), error.status as 400);
    console.error(error);
    return c.json({ error: { code: 'INTERNAL_ERROR', message: 'Internal Server Error' } }, 500);
  });

  const ready = Promise.all([adapter.migrate(), migrateEvents(env)]).then(() => undefined);
  return { app, ready };
}
