/**
 * The Express example: the same flows as examples/hono (sign-up at /auth/signup,
 * credentials sign-in, sign-out, a protected page, the triggers with the
 * welcome mail and the signed webhook) plus an admin page, on
 * @framework/express.
 */
import express, { type Express } from 'express';
import { requireAuth, requireRole, type Auth, type StorageAdapter } from '@framework/auth';
import {
  authErrorHandler,
  authSession,
  authRouter,
  finalErrorHandler,
  securityHeaders,
  triggerRouter,
} from '@framework/express';
import type { TriggerRuntime } from '@framework/trigger';
import { ADMIN_ROLE, seedAdmin } from '@framework/example-shared/admin';
import { createExampleAuth, type ExampleAuthOptions } from '@framework/example-shared/auth';
import { createMailer, type Mailer } from '@framework/example-shared/mailer';
import { createExampleRuntime } from '@framework/example-shared/triggers';
import { createViews } from '@framework/example-shared/views';

/** Options of {@link createExpressExample}. */
export interface ExpressExampleOptions extends ExampleAuthOptions {
  /** An admin account to create at start-up (or promote), e.g. from ADMIN_EMAIL / ADMIN_PASSWORD. */
  admin?: { email: string; password: string; name?: string };
  /** Where the dev mailer logs a line per mail. Default console.info. */
  mailLog?: (line: string) => void;
}

/** The app with what tests and the server need to reach. */
export interface ExpressExample {
  app: Express;
  auth: Auth;
  adapter: StorageAdapter;
  /** The trigger runtime (cron, queue, webhook) shared with the Hono example. `server.ts` starts it. */
  triggers: TriggerRuntime;
  mailer: Mailer;
  close(): Promise<void>;
}

/** Builds the app and migrates its database. */
export async function createExpressExample(options: ExpressExampleOptions = {}): Promise<ExpressExample> {
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

  const app = express();
  app.disable('x-powered-by');
  app.use(securityHeaders());
  app.use(triggerRouter(triggers)); // webhooks see the raw body: before any body parser
  app.use(authRouter(auth));
  app.use(authSession(auth, { scope: true })); // the routes below use requireAuth() and requireRole()

  // The nav bar links only to what this app serves: no tenant demo or dev outbox here (see examples/hono).
  const { homePage, protectedPage, adminPage } = createViews({ passkeys: auth.providers.has('passkey') });
  app.get('/', (req, res) => {
    res.type('html').send(homePage(req.auth?.user ?? null, req.auth?.session ?? null));
  });
  app.get('/protected', (_req, res) => {
    res.type('html').send(protectedPage(requireAuth()));
  });
  app.get('/admin', (_req, res) => {
    requireAuth(); // signed out: the sign-in redirect for browsers
    res.type('html').send(adminPage(requireRole(ADMIN_ROLE)));
  });
  app.get('/api/me', (_req, res) => {
    const user = requireAuth({ throwError: true });
    res.json({ id: user.id, email: user.email, name: user.name, role: user.role ?? null });
  });
  app.use(authErrorHandler(auth));
  app.use(finalErrorHandler());

  return {
    app,
    auth,
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
