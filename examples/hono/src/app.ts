/**
 * The example app: Hono + @framework/auth (password, magic link, passkey and
 * Dev OIDC sign-in; database sessions in an embedded SQLite file), RBAC and
 * tenant pages, and triggers running in the same process.
 */
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { Auth, StorageAdapter } from '@framework/auth';
import {
  authSession,
  mountAuth,
  mountTriggers,
  requireAuth,
  securityHeaders,
  type AuthVariables,
} from '@framework/hono';
import type { TriggerRuntime } from '@framework/trigger';
import type { RateLimitConfig } from '@framework/auth/rate-limit';
import { createViews } from '@framework/example-shared/views';
import { createExampleRuntime } from '@framework/example-shared/triggers';
import { createMailer, type Mailer } from '@framework/example-shared/mailer';
import { createExampleAuth } from '@framework/example-shared/auth';
import type { ResolveTxt } from '@framework/auth/plugins/sso';
import { mountClientDemo } from './client-demo.js';
import { mountAuthorizationDemo, openDemoTenantStorage } from './authorization.js';
import { createNoteStore } from './inbound-mail.js';
import { createAvatarUploadLog, createExampleBucket } from './local-bucket.js';
import { devRoutesEnabled, loopbackOnly } from './dev-only.js';
import { mountDashboard } from '@framework/hono/dashboard';
import { createSqlRunStore, type Dashboard } from '@framework/dashboard';
import { createReportRenderer, dashboardDemo, dashboardEnabled, type ReportRenderer } from './dashboard.js';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export interface ExampleOptions {
  /** SQLite file. Default `.data/example.db`. */
  dbPath?: string;
  /**
   * Optional secret (≥ 32 characters); required when NODE_ENV=production. Turns on two-factor, and with
   * `baseURL` access tokens (`npm start` always passes one: see `dev-secret.ts`).
   */
  secret?: string;
  /** The app's canonical origin (`baseURL` of the auth: links, redirects, the tokens' `iss`). Default: none. */
  baseURL?: string;
  /** Issuer of a local OpenID provider to offer as "Dev OIDC" (see dev-oidc.ts). */
  devOidcIssuer?: string;
  /** The TXT lookup of `sso()`'s domain proof. Default real DNS; `npm start` passes its stand-in (see dev-dns.ts). */
  ssoResolveTxt?: ResolveTxt;
  /** Where the mailer logs a line per mail. Default console.info. */
  mailLog?: (line: string) => void;
  /** SMTP URL for real delivery (nodemailer); the dev outbox keeps a copy either way. */
  smtpUrl?: string;
  /** The app's public origin, for passkeys (WebAuthn rpId is its host). Default http://localhost:3000. */
  origin?: string;
  /**
   * Serve the dev routes (`/dev/outbox`, `/dev/avatars`, `/dev/notes`), and
   * only to clients on this machine (see `dev-only.ts`). Default: when
   * `DEV_OUTBOX=1` or `NODE_ENV` is not `production`.
   */
  devOutbox?: boolean;
  /** Sign-in rate limits. Default: the kit's (5 attempts per 15 minutes per IP and per account). */
  rateLimit?: RateLimitConfig;
  /**
   * Serve the dashboard at `/_framework` (see `dashboard.ts`): to loopback
   * clients in development, to signed-in admins in production. Default: when
   * `DASHBOARD=1` or `NODE_ENV` is not `production`.
   */
  dashboard?: boolean;
}

export interface ExampleApp {
  app: Hono<{ Variables: AuthVariables }>;
  auth: Auth;
  adapter: StorageAdapter;
  /** The trigger runtime (cron, queue, webhook). `server.ts` starts it; tests may. */
  runtime: TriggerRuntime;
  mailer: Mailer;
  /** The dashboard at `/_framework` (answers only when enabled). */
  dashboard: Dashboard;
  /** The dashboard demo's report renderer (see `dashboard.ts`). */
  reports: ReportRenderer;
  close(): Promise<void>;
}

const MAX_AVATAR_BYTES = 1024 * 1024;

/** Builds the app and migrates its database. */
export async function createExampleApp(options: ExampleOptions = {}): Promise<ExampleApp> {
  const dbPath = options.dbPath ?? '.data/example.db';
  const mailer = createMailer({
    filename: dbPath,
    ...(options.smtpUrl ? { smtpUrl: options.smtpUrl } : {}),
    ...(options.mailLog ? { log: options.mailLog } : {}),
  });
  let welcome: (user: { email?: string | null; name?: string | null }) => unknown = () => {};
  const example = await createExampleAuth({
    dbPath,
    mailer,
    onSignUp: (user) => welcome(user),
    origin: options.origin ?? 'http://localhost:3000',
    ...(options.secret ? { secret: options.secret } : {}),
    ...(options.baseURL ? { baseURL: options.baseURL } : {}),
    ...(options.rateLimit ? { rateLimit: options.rateLimit } : {}),
    ...(options.devOidcIssuer ? { devOidcIssuer: options.devOidcIssuer } : {}),
    ...(options.ssoResolveTxt ? { ssoResolveTxt: options.ssoResolveTxt } : {}),
  });
  const { auth, adapter } = example;

  const notes = createNoteStore(dbPath);
  const avatarUploads = createAvatarUploadLog(dbPath);
  const reports = createReportRenderer();
  const runtime = createExampleRuntime(adapter, mailer, { notes, avatarUploads }, dashboardDemo(reports));
  // Sign-ups through /auth/signup get the welcome mail (the welcome-mail queue trigger).
  welcome = (user) => runtime.queue('welcome-mail').send({ to: user.email, name: user.name });
  const avatarDir =
    dbPath === ':memory:' ? await mkdtemp(join(tmpdir(), 'example-avatars-')) : join(dirname(dbPath), 'avatars');
  const avatars = createExampleBucket(avatarDir, runtime);

  const app = new Hono<{ Variables: AuthVariables }>();
  app.use('*', securityHeaders());
  app.use('*', mountTriggers(runtime));
  mountAuth(app, auth);
  // Run history in the example's SQLite file too, so the dashboard shows runs from before a restart.
  const runStore = createSqlRunStore(example.db);
  await runStore.migrate();
  const dashboard = mountDashboard(app, {
    runtime,
    auth,
    history: { store: runStore },
    enabled: dashboardEnabled(options.dashboard),
    mode: process.env.NODE_ENV === 'production' ? 'production' : 'development',
    ...(options.secret ? { secret: options.secret } : {}),
  });
  app.use('*', authSession(auth));
  const devRoutes = devRoutesEnabled(options.devOutbox);
  const { homePage, protectedPage, outboxPage } = createViews({
    ...example.features,
    apiKeys: true,
    organizations: true,
    dashboard: dashboardEnabled(options.dashboard),
    tenants: true,
    outbox: devRoutes,
  });
  const demo = await openDemoTenantStorage(dbPath);
  mountAuthorizationDemo(app, { tenants: demo.tenants });

  app.get('/', (c) => c.html(homePage(c.get('user'), c.get('session'))));

  app.get('/protected', (c) => c.html(protectedPage(requireAuth(c))));

  if (devRoutes) {
    app.use('/dev/*', loopbackOnly);
    app.get('/dev/outbox', async (c) => c.html(outboxPage(await mailer.list())));
    // The local bucket: uploads emit S3-style events to the avatar-uploaded trigger.
    // Hono's bodyLimit stops reading a chunked upload at the limit (the old check only saw Content-Length).
    const avatarLimit = bodyLimit({
      maxSize: MAX_AVATAR_BYTES,
      onError: (c) => c.json({ error: { code: 'PAYLOAD_TOO_LARGE' } }, 413),
    });
    app.put('/dev/avatars/:name', avatarLimit, async (c) => {
      const body = new Uint8Array(await c.req.arrayBuffer());
      try {
        return c.json(await avatars.put(`users/${c.req.param('name')}`, body));
      } catch (e) {
        if ((e as { code?: string }).code === 'OBJECTSTORE_INVALID_KEY')
          return c.json({ error: { code: 'OBJECTSTORE_INVALID_KEY' } }, 400);
        throw e;
      }
    });
    app.get('/dev/avatars', (c) => c.json(avatarUploads.list()));
    app.get('/dev/notes', (c) => c.json(notes.list()));
    // The dashboard demo: queue a report for monthly-report (which dead-letters it once; replay it from /_framework/).
    app.put('/dev/reports/:id', async (c) =>
      c.json({ messageId: await runtime.queue('reports').send({ id: c.req.param('id') }) }, 202),
    );
  }

  app.get('/api/me', (c) => {
    const user = requireAuth(c, { throwError: true });
    return c.json({ id: user.id, email: user.email ?? null, name: user.name ?? null, role: user.role ?? null });
  });
  mountClientDemo(app);

  return {
    app,
    auth,
    adapter,
    runtime,
    mailer,
    dashboard,
    reports,
    close: async () => {
      await runtime.stop({ timeout: '5s' });
      await dashboard.close(); // writes the runs still waiting, before the database closes
      await adapter.close?.();
      await demo.close();
      mailer.close();
      notes.close();
      avatarUploads.close();
    },
  };
}
