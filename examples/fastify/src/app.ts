/**
 * The Fastify example: the same flows as examples/express (sign-up at /auth/signup, credentials sign-in,
 * sign-out, a protected page, an admin page, the triggers with the welcome mail and the signed webhook), on
 * @framework/fastify.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { requireAuth, requireRole, type Auth, type StorageAdapter } from '@framework/auth';
import { authPlugin, authorize, requireAuth as signedIn, securityHeaders, triggerRoutes } from '@framework/fastify';
import type { TriggerRuntime } from '@framework/trigger';
import { ADMIN_ROLE, seedAdmin } from '@framework/example-shared/admin';
import { createExampleAuth, type ExampleAuthOptions } from '@framework/example-shared/auth';
import { createMailer, type Mailer } from '@framework/example-shared/mailer';
import { createExampleRuntime } from '@framework/example-shared/triggers';
import { createViews } from '@framework/example-shared/views';

/** Options of {@link createFastifyExample}. */
export interface FastifyExampleOptions extends ExampleAuthOptions {
  /** An admin account to create at start-up (or promote), e.g. from ADMIN_EMAIL / ADMIN_PASSWORD. */
  admin?: { email: string; password: string; name?: string };
  /** Where the dev mailer logs a line per mail. Default console.info. */
  mailLog?: (line: string) => void;
}

/** The app with what tests and the server need to reach. */
export interface FastifyExample {
  app: FastifyInstance;
  auth: Auth;
  adapter: StorageAdapter;
  /** The trigger runtime (cron, queue, webhook) shared with the other examples. `server.ts` starts it. */
  triggers: TriggerRuntime;
  mailer: Mailer;
  close(): Promise<void>;
}

/** Builds the app (ready, not listening) and migrates its database. */
export async function createFastifyExample(options: FastifyExampleOptions = {}): Promise<FastifyExample> {
  let welcome: (user: { email?: string | null; name?: string | null }) => unknown = () => {};
  const example = await createExampleAuth({ ...options, onSignUp: (user) => welcome(user) });
  if (options.admin) await seedAdmin(example, options.admin);
  const { auth } = example;
  const mailer = createMailer({
    filename: options.dbPath ?? '.data/example.db',
    ...(options.mailLog ? { log: options.mailLog } : {}),
  });
  const triggers = createExampleRuntime(example.adapter, mailer);
  welcome = (user) => triggers.queue('welcome-mail').send({ to: user.email, name: user.name });

  const app = Fastify();
  app.addHook('onRequest', securityHeaders());
  await app.register(authPlugin, { auth, scope: true }); // first: /auth/*, request.auth, the request scope, the error handler
  await app.register(triggerRoutes(triggers)); // webhooks read the raw body themselves

  // The nav bar links only to what this app serves: no tenant demo or dev outbox here (see examples/hono).
  const { homePage, protectedPage, adminPage } = createViews({ passkeys: auth.providers.has('passkey') });
  app.get('/', (request, reply) => {
    reply.type('text/html; charset=utf-8').send(homePage(request.auth?.user ?? null, request.auth?.session ?? null));
  });
  app.get('/protected', (_request, reply) => {
    reply.type('text/html; charset=utf-8').send(protectedPage(requireAuth()));
  });
  app.get('/admin', (_request, reply) => {
    requireAuth(); // signed out: the sign-in redirect for browsers
    reply.type('text/html; charset=utf-8').send(adminPage(requireRole(ADMIN_ROLE)));
  });
  app.get('/api/me', () => {
    const user = requireAuth({ throwError: true });
    return { id: user.id, email: user.email, name: user.name, role: user.role ?? null };
  });
  // The same checks as preHandler guards: 401 / 403 JSON for API clients, a redirect / 403 page for browsers.
  app.get('/api/session', { preHandler: signedIn() }, (request) => ({ expires: request.auth?.session?.expires }));
  app.get('/api/admin', { preHandler: authorize({ role: ADMIN_ROLE }) }, (request) => ({
    admin: request.auth?.user?.email,
  }));
  await app.ready();

  return {
    app,
    auth,
    adapter: example.adapter,
    triggers,
    mailer,
    async close() {
      await app.close();
      await triggers.stop({ timeout: '5s' });
      await example.adapter.close?.();
      mailer.close();
    },
  };
}
