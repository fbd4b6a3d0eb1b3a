/**
 * The app the signed-in browser tests visit: the kit's routes with two-factor, organizations and
 * testSignInRoute(), and `/me` answering the session's email, roles and active organization role as JSON.
 */
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { createAuth, createMemoryAdapter } from '@framework/auth';
import { createMemoryTwoFactorStorage, twoFactor } from '@framework/auth/plugins/two-factor';
import { createMemoryInvitationStorage, organizations } from '@framework/auth/plugins/organizations';
import { createMemoryTenantStorage } from '@framework/auth/tenant';
import { authSession, mountAuth, requireAuth, type AuthVariables } from '@framework/hono';
import { createMailbox, testSignInRoute } from '@framework/testing';

export const SIGN_IN_SECRET = 'a-test-sign-in-secret-of-32-chars-at-least';

export function buildSignedInApp() {
  const auth = createAuth({
    secret: 'a-session-secret-of-at-least-32-characters',
    session: { strategy: 'database' },
    adapter: createMemoryAdapter(),
    providers: [],
    env: {},
    logger: { error: () => {}, warn: () => {} },
    plugins: [
      twoFactor({ storage: createMemoryTwoFactorStorage() }),
      organizations({
        tenants: createMemoryTenantStorage(),
        invitations: createMemoryInvitationStorage(),
        sendInvitation: createMailbox().hooks.sendInvitation,
      }),
      testSignInRoute({ secret: SIGN_IN_SECRET, env: {} }),
    ],
  });
  const app = new Hono<{ Variables: AuthVariables }>();
  mountAuth(app, auth);
  app.use('*', authSession(auth));
  app.get('/me', async (c) => {
    const user = requireAuth(c, { throwError: true });
    const active = await auth.extensions.organizations.active(c.req.raw, user);
    return c.json({ email: user.email, roles: user.roles ?? null, orgRole: active?.membership.role ?? null });
  });
  return { app, auth };
}

/** Serves `app` on 127.0.0.1, port 0. */
export async function serveApp(app: { fetch: (request: Request) => Response | Promise<Response> }) {
  const server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  };
}
