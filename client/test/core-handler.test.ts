/**
 * The helpers against the real auth engine (no HTTP server): a fetch that
 * hands each request to `auth.handler` and keeps cookies like a browser.
 */
import { describe, expect, it } from 'vitest';
import { createAuth, credentials, memoryAdapter, passwordAccounts } from '@framework/auth';
import { createAuthClient } from '../src/index.js';

async function setup() {
  const adapter = memoryAdapter();
  const passwords = passwordAccounts(adapter);
  await passwords.register({ email: 'ada@example.com', password: 'analytical-engine', name: 'Ada' });
  const auth = createAuth({
    session: { strategy: 'database' },
    adapter,
    providers: [credentials({ credentials: { email: { label: 'Email', type: 'email' }, password: { label: 'Password', type: 'password' } }, authorize: passwords.authorize })],
  });
  const jar = new Map<string, string>();
  const fetcher: typeof fetch = async (input, init = {}) => {
    const headers = new Headers(init.headers);
    headers.set('origin', 'http://app.test');
    if (jar.size) headers.set('cookie', [...jar].map(([k, v]) => `${k}=${v}`).join('; '));
    const response = await auth.handler(new Request(new URL(String(input), 'http://app.test'), { ...init, headers }));
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      if (value === '' || /max-age=0/i.test(line)) jar.delete(name);
      else jar.set(name, value);
    }
    return response;
  };
  return createAuthClient({ fetch: fetcher });
}

describe('client helpers against the auth engine', () => {
  it('signs in with credentials, reads the session, signs out', async () => {
    const client = await setup();
    const store = client.createAuthStore();
    const stop = store.subscribe(() => {});
    expect(await client.signIn('credentials', { email: 'ada@example.com', password: 'wrong-password', redirect: false })).toEqual({
      ok: false,
      status: 401,
      error: 'INVALID_CREDENTIALS',
    });
    const ok = await client.signIn('credentials', { email: 'ada@example.com', password: 'analytical-engine', callbackUrl: '/home', redirect: false });
    expect(ok).toEqual({ ok: true, status: 200, url: '/home' });
    expect(store.getState()).toMatchObject({ status: 'authenticated', user: { email: 'ada@example.com', name: 'Ada' } });
    expect(typeof store.getState().session?.expires).toBe('string');
    expect(await client.getSession()).toMatchObject({ user: { email: 'ada@example.com' } });
    const out = await client.signOut({ redirect: false, redirectTo: '/bye' });
    expect(out).toEqual({ ok: true, status: 200, url: '/bye', session: null });
    expect(store.getState().status).toBe('unauthenticated');
    stop();
  });

  it('reports an unknown provider', async () => {
    const client = await setup();
    expect(await client.signIn('nope', { redirect: false })).toMatchObject({ ok: false, status: 404, error: 'PROVIDER_NOT_FOUND' });
  });
});
