/**
 * `bearer()` behind the Hono adapter: `authSession` reads `Authorization: Bearer` on the app's routes; the session
 * cookie wins over it; a signed-out token is refused.
 */
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { createAuth, createMemoryAdapter, passwordAccounts } from '@framework/auth';
import { bearer } from '@framework/auth/plugins/bearer';
import { authSession, mountAuth, type AuthVariables } from './index.js';

async function setup() {
  const adapter = createMemoryAdapter();
  const ada = await passwordAccounts(adapter).register({ email: 'ada@example.com', password: 'analytical-engine' });
  const auth = createAuth({
    adapter,
    secret: 'hono-bearer-test-secret-0123456789abcdef',
    session: { strategy: 'database' },
    emailAndPassword: {},
    plugins: [bearer()],
  });
  const app = new Hono<{ Variables: AuthVariables }>();
  mountAuth(app, auth);
  app.use('*', authSession(auth));
  app.get('/api/me', (c) => c.json({ user: c.get('user')?.id ?? null }));
  return { app, ada };
}

describe('bearer() with Hono', () => {
  it('authSession reads the bearer token, and a signed-out token is refused', async () => {
    const { app, ada } = await setup();
    const signedIn = await app.request('/auth/callback/credentials', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', 'x-auth-mode': 'bearer' },
      body: JSON.stringify({ email: 'ada@example.com', password: 'analytical-engine' }),
    });
    expect(signedIn.status).toBe(200);
    expect(signedIn.headers.getSetCookie().some((c) => /session/.test(c))).toBe(false);
    const token = signedIn.headers.get('set-auth-token')!;
    const me = await app.request('/api/me', { headers: { authorization: `Bearer ${token}` } });
    expect(await me.json()).toStrictEqual({ user: ada.id });
    const out = await app.request('/auth/bearer/sign-out', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: '{}',
    });
    expect(out.status).toBe(200);
    const after = await app.request('/api/me', { headers: { authorization: `Bearer ${token}` } });
    expect(await after.json()).toStrictEqual({ user: null });
  });
});
