import { afterAll, describe, expect, it } from 'vitest';
import { Hono } from 'hono';
import { createAuth, passkey, type StorageAdapter } from '@framework/auth';
import { authSession, mountAuth, requireAuth, type AuthVariables } from '@framework/hono';
import { createTestContext, type TestContext } from '@framework/testing';
import { SoftAuthenticator } from '@framework/testing/webauthn';
import '@framework/testing/vitest';

// The app under test: normally imported from your source tree.
function createApp(adapter: StorageAdapter, origin: string) {
  const auth = createAuth({
    baseURL: origin,
    secret: process.env.AUTH_SECRET ?? 'a-test-secret-of-at-least-32-characters',
    adapter,
    providers: [passkey({ rpName: 'My app', rpId: new URL(origin).hostname, origin })],
  });
  const app = new Hono<{ Variables: AuthVariables }>();
  mountAuth(app, auth);
  app.use('*', authSession(auth));
  app.get('/me', (c) => c.json({ email: requireAuth(c, { throwError: true }).email }));
  return { app, auth };
}

/** A JSON POST to the kit's routes, with a fresh CSRF token, as the app's own page sends it. */
async function post(ctx: TestContext, path: string, body: Record<string, unknown> = {}) {
  const { csrfToken } = (await (await ctx.fetch('/auth/csrf')).json()) as { csrfToken: string };
  const headers = { accept: 'application/json', 'content-type': 'application/json', 'x-csrf-token': csrfToken };
  return ctx.fetch(path, { method: 'POST', headers, body: JSON.stringify(body) });
}

describe('passkeys in my Hono app', async () => {
  const ctx = await createTestContext({
    createApp: (db, { origin }) => createApp(db.adapter, origin),
    seed: async (db) => {
      await db.adapter.createUser({ id: 'ada', email: 'ada@example.com', emailVerified: new Date() });
    },
  });
  afterAll(() => ctx.cleanup());
  const key = new SoftAuthenticator(); // a passkey held in memory, answering as a browser would

  it('a signed-in user adds a passkey', async () => {
    const ada = ctx.withAuth({ userId: 'ada' });
    const options = await (await post(ada, '/auth/passkey/register/options')).json();
    const added = await post(ada, '/auth/passkey/register/verify', {
      response: JSON.stringify(key.register(options, ctx.origin)),
      name: 'Laptop',
    });
    expect(added.status).toBe(200);
  });

  it('then signs in with it on another browser', async () => {
    const options = await (await post(ctx, '/auth/passkey/authenticate/options')).json();
    const signedIn = await post(ctx, '/auth/passkey/authenticate/verify', {
      response: JSON.stringify(key.authenticate(options, ctx.origin)),
    });
    await expect(signedIn).toBeSignedInAs('ada@example.com');
    expect(await (await ctx.fetch('/me')).json()).toEqual({ email: 'ada@example.com' });
  });
});
