import { afterEach, describe, expect, it, vi } from 'vitest';
import { STORE_UNMOUNT_DELAY } from 'nanostores';
import { createAuthClient, createAuthStore, signIn, signOut, type AuthState } from '../src/index.js';
import { ADA, fakeServer, until } from './fake-fetch.js';

const statuses = (states: AuthState[]) => states.map((s) => s.status);

function watch(store: ReturnType<typeof createAuthStore>) {
  const seen: AuthState[] = [];
  const stop = store.subscribe((s) => seen.push(s));
  return { seen, stop };
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('createAuthStore', () => {
  it('starts lazily: nothing is fetched before the first subscriber', async () => {
    const server = fakeServer();
    createAuthStore({ fetch: server.fetch });
    await new Promise((r) => setTimeout(r, 20));
    expect(server.calls).toEqual([]);
  });

  it('goes loading → unauthenticated when nobody is signed in', async () => {
    const server = fakeServer();
    const store = createAuthStore({ fetch: server.fetch });
    const { seen, stop } = watch(store);
    await until(() => seen.length === 2);
    expect(statuses(seen)).toEqual(['loading', 'unauthenticated']);
    expect(store.getState()).toEqual({ status: 'unauthenticated', user: null, session: null });
    stop();
  });

  it('goes loading → authenticated with the user and the session', async () => {
    const server = fakeServer();
    server.session = ADA;
    const store = createAuthStore({ fetch: server.fetch });
    const { seen, stop } = watch(store);
    await until(() => seen.length === 2);
    expect(seen[1]).toEqual({ status: 'authenticated', user: ADA.user, session: ADA });
    stop();
  });

  it('never reports authenticated with a null or malformed user', async () => {
    for (const session of [
      { user: null, expires: ADA.expires },
      { user: {}, expires: ADA.expires },
      { user: { id: '' } },
      'nonsense',
    ]) {
      const server = fakeServer();
      server.session = session;
      const store = createAuthStore({ fetch: server.fetch });
      const { seen, stop } = watch(store);
      await until(() => seen.length === 2);
      expect(seen[1]?.status).toBe('unauthenticated');
      stop();
    }
  });

  it('is refreshed by signIn and signOut in the same page before they resolve', async () => {
    const server = fakeServer();
    const store = createAuthStore({ fetch: server.fetch });
    const { seen, stop } = watch(store);
    await until(() => seen.length === 2);
    await signIn('credentials', {
      email: 'ada@example.com',
      password: 'right-password',
      redirect: false,
      fetch: server.fetch,
    });
    expect(store.getState().status).toBe('authenticated');
    expect(store.getState().user?.email).toBe('ada@example.com');
    await signOut({ redirect: false, fetch: server.fetch });
    expect(store.getState()).toEqual({ status: 'unauthenticated', user: null, session: null });
    expect(statuses(seen)).toEqual(['loading', 'unauthenticated', 'authenticated', 'unauthenticated']);
    stop();
  });

  it('ignores sign-ins against another endpoint', async () => {
    const server = fakeServer();
    const store = createAuthStore({ fetch: server.fetch });
    const { seen, stop } = watch(store);
    await until(() => seen.length === 2);
    const before = server.calls.length;
    await signIn('credentials', {
      basePath: '/other',
      password: 'right-password',
      redirect: false,
      fetch: server.fetch,
    });
    expect(server.calls.length).toBe(before + 2);
    stop();
  });

  it('refetches when the window gets focus', async () => {
    const win = new EventTarget();
    vi.stubGlobal('window', win);
    const server = fakeServer();
    const store = createAuthStore({ fetch: server.fetch });
    const { seen, stop } = watch(store);
    await until(() => seen.length === 2);
    server.session = ADA;
    win.dispatchEvent(new Event('focus'));
    await until(() => store.getState().status === 'authenticated');
    stop();
  });

  it('refetches when another tab announces a change over BroadcastChannel', async () => {
    const server = fakeServer();
    const store = createAuthStore({ fetch: server.fetch });
    const { seen, stop } = watch(store);
    await until(() => seen.length === 2);
    server.session = ADA;
    const otherTab = new BroadcastChannel('framework-auth:/auth');
    otherTab.postMessage({ type: 'session-changed', from: 'another-tab' });
    otherTab.close();
    await until(() => store.getState().status === 'authenticated');
    stop();
  });

  it('never overlaps requests and coalesces refreshes asked for meanwhile', async () => {
    const server = fakeServer();
    let open!: () => void;
    server.gate = new Promise((r) => (open = r));
    const store = createAuthStore({ fetch: server.fetch });
    const { stop } = watch(store);
    const refreshes = [store.refresh(), store.refresh(), store.refresh()];
    server.session = ADA;
    open();
    await Promise.all(refreshes);
    expect(server.maxInFlight).toBe(1);
    expect(server.calls.filter((c) => c.url.endsWith('/session')).length).toBe(2);
    expect(store.getState().status).toBe('authenticated');
    stop();
  });

  it('reports unauthenticated with an error when the first read fails, and keeps a known state after', async () => {
    const server = fakeServer();
    server.sessionStatus = 'network';
    const store = createAuthStore({ fetch: server.fetch });
    const { seen, stop } = watch(store);
    await until(() => seen.length === 2);
    expect(seen[1]).toMatchObject({ status: 'unauthenticated', error: 'fetch failed' });
    server.sessionStatus = 200;
    server.session = ADA;
    await store.refresh();
    server.sessionStatus = 503;
    await store.refresh();
    expect(store.getState().status).toBe('authenticated');
    stop();
  });

  it('stops a moment after the last subscriber leaves and starts over as loading', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const server = fakeServer();
    server.session = ADA;
    const store = createAuthStore({ fetch: server.fetch });
    const first = watch(store);
    await vi.waitFor(() => expect(store.getState().status).toBe('authenticated'));
    first.stop();
    vi.advanceTimersByTime(STORE_UNMOUNT_DELAY + 10);
    vi.useRealTimers();
    const second = watch(store);
    expect(second.seen[0]?.status).toBe('loading');
    await until(() => second.seen.length === 2);
    expect(server.calls.filter((c) => c.url.endsWith('/session')).length).toBe(2);
    second.stop();
  });

  it('exposes the nanostores atom', async () => {
    const server = fakeServer();
    const { $auth } = createAuthStore({ fetch: server.fetch });
    const seen: string[] = [];
    const stop = $auth.listen((s) => seen.push(s.status));
    await until(() => seen.length === 1);
    expect(seen).toEqual(['unauthenticated']);
    stop();
  });
});

describe('createAuthClient', () => {
  it('binds the endpoint options to every helper, and its stores follow its sign-ins', async () => {
    const server = fakeServer();
    const client = createAuthClient({ baseUrl: 'https://api.example.com', fetch: server.fetch });
    const store = client.createAuthStore();
    const { seen, stop } = watch(store);
    await until(() => seen.length === 2);
    await client.signIn('credentials', { password: 'right-password', redirect: false });
    expect(store.getState().status).toBe('authenticated');
    expect(await client.getSession()).toEqual(ADA);
    expect((await client.signOut({ redirect: false })).session).toBeNull();
    expect(server.calls.every((c) => c.url.startsWith('https://api.example.com/auth/'))).toBe(true);
    stop();
  });
});
