/**
 * The "company" identity provider of the SSO demo: a second, small app built from the kit itself (`createAuth` with
 * `jwt()` and `oidcProvider()` over its own in-memory SQLite), standing in for Acme's Okta or Entra ID. It knows one
 * employee, {@link COMPANY_EMPLOYEE}, signs them in with the kit's default sign-in page, asks their consent, and
 * sends them back to the example app with an authorization code. The example app registers it as Acme's SSO
 * provider (see `sso-seed.ts`), so "Sign in with SSO" → `ada@acme.test` ends here and comes back signed in.
 */
import { randomBytes } from 'node:crypto';
import { serve, type ServerType } from '@hono/node-server';
import { createAuth, createSqliteAdapter, passwordAccounts, type Auth } from '@framework/auth';
import { jwt } from '@framework/auth/plugins/jwt';
import { oidcProvider } from '@framework/auth/plugins/oidc-provider';

/** The one employee of the company IdP. Demo data only: never seed real systems with this password. */
export const COMPANY_EMPLOYEE = { email: 'ada@acme.test', password: 'acme-password', name: 'Ada Lovelace' } as const;

/** The client the example app is at the company IdP (confidential: it authenticates with its secret). */
export const COMPANY_CLIENT_ID = 'example-app';
/** The id under which the example app registers the IdP: its redirect URI ends in `/auth/sso/callback/<id>`. */
export const ACME_PROVIDER_ID = 'acme';

export interface CompanyIdp {
  /** `http://<host>:<port>/auth`: the IdP's issuer (discovery at `<issuer>/.well-known/openid-configuration`). */
  issuer: string;
  /** The example app's client secret at this IdP (random per start: the IdP keeps nothing on disk). */
  clientSecret: string;
  auth: Auth;
  stop(): Promise<void>;
}

export interface CompanyIdpOptions {
  /** The example app's origin (`APP_ORIGIN`): the registered redirect URI is `<appOrigin>/auth/sso/callback/acme`. */
  appOrigin: string;
  /** Port; 0 picks a free one. Default 0. */
  port?: number;
  /**
   * The host name the IdP is reached at. Default: `127.0.0.1`, or `localhost` when the app itself is on
   * 127.0.0.1. Browsers keep cookies per host, not per port, so the two apps must not share a host name (their
   * session cookies have the same name).
   */
  host?: string;
}

/** Starts the company IdP on 127.0.0.1 and seeds its employee (email verified, as a company directory's are). */
export async function startCompanyIdp(options: CompanyIdpOptions): Promise<CompanyIdp> {
  const appOrigin = new URL(options.appOrigin);
  const host = options.host ?? (appOrigin.hostname === '127.0.0.1' ? 'localhost' : '127.0.0.1');
  const app: { handler?: (request: Request, ip: string | undefined) => Promise<Response> } = {};
  // Listen first: the issuer (the auth's baseURL) names the port, which is known only once listening.
  const listen = (port: number) =>
    new Promise<ServerType>((resolve, reject) => {
      const s = serve(
        {
          // The client's address, for the IdP's login limiter (it counts failed sign-ins per IP).
          fetch: (request, env) =>
            app.handler
              ? app.handler(request, env.incoming.socket.remoteAddress)
              : new Response('Starting', { status: 503 }),
          port,
          hostname: '127.0.0.1',
        },
        () => resolve(s),
      );
      s.once('error', reject);
    });
  // A taken port (another app on 3001) falls back to a free one rather than stopping the example.
  const server = await listen(options.port ?? 0).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EADDRINUSE' || !options.port) throw error;
    console.warn(`company IdP: port ${options.port} is taken, listening on a free port instead`);
    return listen(0);
  });
  const { port } = server.address() as { port: number };
  const baseURL = `http://${host}:${port}`;
  const clientSecret = randomBytes(32).toString('base64url');
  const adapter = createSqliteAdapter({ filename: ':memory:' });
  await adapter.migrate();
  const auth = createAuth({
    baseURL,
    secret: randomBytes(32).toString('base64url'),
    session: { strategy: 'database' },
    adapter,
    providers: [],
    emailAndPassword: {},
    plugins: [
      jwt({ audience: `${baseURL}/api` }),
      oidcProvider({
        clients: [
          {
            clientId: COMPANY_CLIENT_ID,
            clientSecret,
            name: 'Framework example app',
            redirectUris: [`${appOrigin.origin}/auth/sso/callback/${ACME_PROVIDER_ID}`],
            scopes: ['openid', 'profile', 'email'],
          },
        ],
      }),
    ],
  });
  await auth.migrate();
  const ada = await passwordAccounts(adapter).register({
    email: COMPANY_EMPLOYEE.email,
    password: COMPANY_EMPLOYEE.password,
    name: COMPANY_EMPLOYEE.name,
  });
  await adapter.updateUser(ada.id, { emailVerified: new Date() });
  app.handler = (request, ip) => auth.handler(request, ip ? { ip } : undefined);
  return {
    issuer: `${baseURL}/auth`,
    clientSecret,
    auth,
    async stop() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await adapter.close?.();
    },
  };
}
