/**
 * The Express example: the same flows as examples/hono (register,
 * credentials sign-in, sign-out, a protected page) plus an admin page and the
 * signed webhook, on @framework/express.
 */
import express, { type Express, type Response } from 'express';
import { requireAuth, type Auth, type StorageAdapter } from '@framework/auth';
import { authErrorHandler, authMiddleware, authRouter, toWebRequest, triggerRouter } from '@framework/express';
import type { TriggerRuntime } from '@framework/trigger';
import {
  adminPage,
  createExampleAuth,
  createExampleTriggers,
  homePage,
  protectedPage,
  registration,
  registrationForm,
  requireAdmin,
  seedAdmin,
  type ExampleAuthOptions,
  type PageResult,
} from './shared.js';

/** Options of {@link createExpressExample}. */
export interface ExpressExampleOptions extends ExampleAuthOptions {
  /** An admin account to create at start-up (or promote), e.g. from ADMIN_EMAIL / ADMIN_PASSWORD. */
  admin?: { email: string; password: string; name?: string };
}

/** The app with what tests and the server need to reach. */
export interface ExpressExample {
  app: Express;
  auth: Auth;
  adapter: StorageAdapter;
  triggers: TriggerRuntime;
  close(): Promise<void>;
}

function send(res: Response, page: PageResult): void {
  for (const cookie of page.headers.getSetCookie()) res.append('Set-Cookie', cookie);
  if (page.redirect) res.redirect(page.status, page.redirect);
  else res.status(page.status).type('html').send(page.html);
}

/** Builds the app and migrates its database. */
export async function createExpressExample(options: ExpressExampleOptions = {}): Promise<ExpressExample> {
  const example = await createExampleAuth(options);
  if (options.admin) await seedAdmin(example, options.admin);
  const { auth } = example;
  const triggers = createExampleTriggers();

  const app = express();
  app.disable('x-powered-by');
  app.use(triggerRouter(triggers)); // webhooks see the raw body: before any body parser
  app.use(authRouter(auth));
  app.use(authMiddleware(auth));
  app.use(express.urlencoded({ extended: false, limit: '16kb' }));

  app.get('/', (req, res) => {
    res.type('html').send(homePage(req.auth?.user ?? null, req.auth?.session ?? null));
  });
  app.get('/protected', (_req, res) => {
    res.type('html').send(protectedPage(requireAuth()));
  });
  app.get('/admin', (_req, res) => {
    res.type('html').send(adminPage(requireAdmin(requireAuth())));
  });
  app.get('/api/me', (_req, res) => {
    const user = requireAuth({ throwError: true });
    res.json({ id: user.id, email: user.email, name: user.name, role: user.role ?? null });
  });
  app.get('/register', async (req, res) => {
    send(res, await registrationForm(auth, toWebRequest(req, res, { body: false })));
  });
  app.post('/register', async (req, res) => {
    send(res, await registration(example, toWebRequest(req, res, { body: false }), (req.body ?? {}) as Record<string, unknown>));
  });

  app.use(authErrorHandler(auth));

  return {
    app,
    auth,
    adapter: example.adapter,
    triggers,
    async close() {
      await triggers.stop();
      await example.adapter.close?.();
    },
  };
}
