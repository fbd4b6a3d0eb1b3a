/**
 * The example app: Hono + @framework/auth with credentials sign-in and
 * database sessions in an embedded SQLite file.
 */
import { Hono } from 'hono';
import {
  AuthError,
  createAuth,
  createOAuth2Provider,
  credentials,
  passwordAccounts,
  requireAuth,
  sqliteAdapter,
  type Auth,
  type StorageAdapter,
} from '@framework/auth';
import { authSession, mountAuth, mountTriggers, type AuthVariables } from '@framework/hono';
import type { TriggerRuntime } from '@framework/trigger';
import { homePage, protectedPage, registerPage } from './views.js';
import { createExampleRuntime, devMailer, type DevMailer } from './triggers.js';

export interface ExampleOptions {
  /** SQLite file. Default `.data/example.db`. */
  dbPath?: string;
  /** Optional secret (≥ 32 characters); required when NODE_ENV=production. */
  secret?: string;
  /** Issuer of a local OpenID provider to offer as "Dev OIDC" (see dev-oidc.ts). */
  devOidcIssuer?: string;
  /** Where the dev mailer logs a line per mail. Default console.info. */
  mailLog?: (line: string) => void;
}

export interface ExampleApp {
  app: Hono<{ Variables: AuthVariables }>;
  auth: Auth;
  adapter: StorageAdapter;
  /** The trigger runtime (cron, queue, webhook). `server.ts` starts it; tests may. */
  runtime: TriggerRuntime;
  mailer: DevMailer;
  close(): Promise<void>;
}

const MAX_FORM_BYTES = 16 * 1024;

/** Builds the app and migrates its database. */
export async function createExampleApp(options: ExampleOptions = {}): Promise<ExampleApp> {
  const adapter = sqliteAdapter({ filename: options.dbPath ?? '.data/example.db' });
  await adapter.migrate();
  const passwords = passwordAccounts(adapter);

  const auth = createAuth({
    session: { strategy: 'database' },
    ...(options.secret ? { secret: options.secret } : {}),
    adapter,
    providers: [
      credentials({
        name: 'Email and password',
        credentials: {
          email: { label: 'Email', type: 'email', required: true },
          password: { label: 'Password', type: 'password', required: true },
        },
        authorize: passwords.authorize,
      }),
      ...(options.devOidcIssuer
        ? [
            createOAuth2Provider({
              id: 'dev-oidc',
              name: 'Dev OIDC',
              issuer: options.devOidcIssuer,
              clientId: 'example',
              clientSecret: 'example-secret',
              profile: (claims) => ({
                id: String(claims.sub),
                email: (claims.email as string | undefined) ?? null,
                name: (claims.name as string | undefined) ?? null,
                emailVerified: claims.email_verified === true ? new Date() : null,
              }),
            }),
          ]
        : []),
    ],
  });

  const mailer = devMailer(options.mailLog);
  const runtime = createExampleRuntime(adapter, mailer);

  const app = new Hono<{ Variables: AuthVariables }>();
  app.use('*', mountTriggers(runtime));
  mountAuth(app, auth);
  app.use('*', authSession(auth));

  app.get('/', (c) => c.html(homePage(c.get('user'), c.get('session'))));

  app.get('/protected', (c) => c.html(protectedPage(requireAuth())));

  app.get('/register', async (c) => {
    const { token, headers } = await auth.csrf.issue(c.req.raw);
    for (const cookie of headers.getSetCookie()) c.header('set-cookie', cookie, { append: true });
    return c.html(registerPage(token));
  });

  app.post('/register', async (c) => {
    const length = Number(c.req.header('content-length') ?? 0);
    if (length > MAX_FORM_BYTES) return c.text('Form too large', 413);
    const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    const field = (k: string) => (typeof form[k] === 'string' ? (form[k] as string) : '');
    const values = { email: field('email'), name: field('name') };
    try {
      await auth.csrf.verify(c.req.raw, field('csrfToken'));
      const user = await passwords.register({ email: values.email, password: field('password'), name: values.name });
      await runtime.queue('welcome-mail').send({ to: user.email, name: user.name });
    } catch (e) {
      if (!(e instanceof AuthError)) throw e;
      const { token, headers } = await auth.csrf.issue(c.req.raw);
      for (const cookie of headers.getSetCookie()) c.header('set-cookie', cookie, { append: true });
      const message = e.code.startsWith('CSRF_') ? 'Your form expired. Please try again.' : e.message;
      return c.html(registerPage(token, message, values), e.status as 400 | 403 | 409);
    }
    return c.redirect('/auth/signin?callbackUrl=%2F', 303);
  });

  return {
    app,
    auth,
    adapter,
    runtime,
    mailer,
    close: async () => {
      await runtime.stop({ timeout: '5s' });
      await adapter.close?.();
    },
  };
}
