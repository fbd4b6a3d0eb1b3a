/**
 * The example Hono app: credentials sign-in with sessions in D1, a register
 * route, the signed webhook, and a page that shows who is signed in.
 * @module
 */
import { Hono } from 'hono';
import { createAuth, credentials, passwordAccounts } from '@framework/auth';
import { authSession, mountAuth, mountTriggers, type AuthVariables } from '@framework/hono';
import { d1Adapter } from '@framework/auth';
import type { WorkerEnv } from './env.js';
import { createTriggers, EVENTS_TABLE, migrateEvents } from './triggers.js';

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
  const adapter = d1Adapter({ binding: env.DB });
  const passwords = passwordAccounts(adapter);
  const auth = createAuth({
    session: { strategy: 'database' },
    secret: env.AUTH_SECRET,
    adapter,
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

  const app = new Hono<{ Variables: AuthVariables }>();
  app.use('/webhooks/*', mountTriggers(createTriggers(env)));
  mountAuth(app, auth);
  app.use('*', authSession(auth));

  app.get('/', (c) => c.json({ user: c.get('user') ?? null, runtime: navigator.userAgent }));
  app.post('/register', async (c) => {
    const body = (await c.req.json()) as { email?: string; password?: string; name?: string };
    const user = await passwords.register({ email: body.email ?? '', password: body.password ?? '', ...(body.name ? { name: body.name } : {}) });
    return c.json({ id: user.id, email: user.email }, 201);
  });
  app.get('/webhooks-received', async (c) => {
    const { results = [] } = await env.DB.prepare(`SELECT trace_id, payload FROM ${EVENTS_TABLE} ORDER BY received_at`).all<{ trace_id: string; payload: string }>();
    return c.json(results.map((row) => ({ traceId: row.trace_id, payload: JSON.parse(row.payload) as unknown })));
  });
  app.onError((error, c) => {
    const status = (error as { status?: number }).status;
    const code = (error as { code?: string }).code;
    if (status && code) return c.json({ error: { code, message: error.message } }, status as 400);
    throw error;
  });

  const ready = Promise.all([adapter.migrate(), migrateEvents(env)]).then(() => undefined);
  return { app, ready };
}
