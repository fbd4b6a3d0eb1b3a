/**
 * `useAuthSession()` over a real store and the real engine (requests handed to `auth.handler` with a session
 * cookie): in the browser it follows the store through `@nanostores/vue`; during server rendering it stays
 * `loading` and fetches nothing.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { effectScope } from 'vue';
import { createAuthStore } from '@framework/auth-client';
import { authFixture, ORIGIN } from '@framework/testing/conformance';
import { useAuthSession } from './composables.js';

afterEach(() => {
  vi.unstubAllGlobals();
});

async function storeFor(email: string | null) {
  const { auth, signIn } = await authFixture({ rbac: true });
  const cookie = email ? await signIn(email) : null;
  const calls: string[] = [];
  const fetcher: typeof fetch = async (input, init = {}) => {
    calls.push(String(input));
    const headers = new Headers(init.headers);
    if (cookie) headers.set('cookie', cookie);
    return auth.handler(new Request(new URL(String(input), ORIGIN), { ...init, headers }));
  };
  return { store: createAuthStore({ baseUrl: ORIGIN, fetch: fetcher }), calls };
}

describe('useAuthSession', () => {
  it('follows the store in the browser: loading, then the signed-in user', async () => {
    vi.stubGlobal('window', new EventTarget());
    const { store } = await storeFor('ada@example.com');
    const scope = effectScope();
    const refs = scope.run(() => useAuthSession(store))!;
    expect(refs.status.value).toBe('loading');
    await vi.waitFor(() => expect(refs.status.value).toBe('authenticated'));
    expect(refs.user.value).toMatchObject({ email: 'ada@example.com' });
    expect(refs.state.value.session?.user).toMatchObject({ email: 'ada@example.com' });
    scope.stop();
  });

  it('says unauthenticated for a visitor without a session', async () => {
    vi.stubGlobal('window', new EventTarget());
    const { store } = await storeFor(null);
    const scope = effectScope();
    const refs = scope.run(() => useAuthSession(store))!;
    await vi.waitFor(() => expect(refs.status.value).toBe('unauthenticated'));
    expect(refs.user.value).toBeNull();
    scope.stop();
  });

  it('stays loading during server rendering and fetches nothing', async () => {
    const { store, calls } = await storeFor('ada@example.com');
    const scope = effectScope();
    const refs = scope.run(() => useAuthSession(store))!;
    await new Promise((resolve) => setImmediate(resolve));
    expect([refs.status.value, refs.user.value, calls]).toEqual(['loading', null, []]);
    scope.stop();
  });
});
