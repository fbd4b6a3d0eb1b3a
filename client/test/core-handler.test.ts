/**
 * The helpers against the real auth engine (no HTTP server): a fetch that
 * hands each request to `auth.handler` and keeps cookies like a browser.
 */
import { describe, expect, it } from 'vitest';
import { engine } from './engine-fetch.js';
import { deleteAccount, listSessions, revokeOtherSessions, revokeSession, unlinkAccount } from '../src/index.js';

async function setup() {
  return (await engine()).browser().client;
}

describe('client helpers against the auth engine', () => {
  it('signs in with credentials, reads the session, signs out', async () => {
    const client = await setup();
    const store = client.createAuthStore();
    const stop = store.subscribe(() => {});
    expect(
      await client.signIn('credentials', { email: 'ada@example.com', password: 'wrong-password', redirect: false }),
    ).toEqual({
      ok: false,
      status: 401,
      error: 'INVALID_CREDENTIALS',
    });
    const ok = await client.signIn('credentials', {
      email: 'ada@example.com',
      password: 'analytical-engine',
      callbackUrl: '/home',
      redirect: false,
    });
    expect(ok).toEqual({ ok: true, status: 200, url: '/home' });
    expect(store.getState()).toMatchObject({
      status: 'authenticated',
      user: { email: 'ada@example.com', name: 'Ada' },
    });
    expect(typeof store.getState().session?.expires).toBe('string');
    expect(await client.getSession()).toMatchObject({ user: { email: 'ada@example.com' } });
    const out = await client.signOut({ redirect: false, redirectTo: '/bye' });
    expect(out).toEqual({ ok: true, status: 200, url: '/bye', session: null });
    expect(store.getState().status).toBe('unauthenticated');
    stop();
  });

  it('reports an unknown provider', async () => {
    const client = await setup();
    expect(await client.signIn('nope', { redirect: false })).toMatchObject({
      ok: false,
      status: 404,
      error: 'PROVIDER_NOT_FOUND',
    });
  });
});

describe('account helpers against the auth engine', () => {
  const SIGN_IN = { email: 'ada@example.com', password: 'analytical-engine', redirect: false } as const;

  it('lists sessions, ends another browser with revokeSession, then all others', async () => {
    const { browser } = await engine();
    const [laptop, phone, tablet] = [browser(), browser(), browser()];
    for (const b of [laptop, phone, tablet]) expect((await b.client.signIn('credentials', SIGN_IN)).ok).toBe(true);
    const listed = await listSessions({ fetch: laptop.fetch });
    expect(listed.ok).toBe(true);
    expect(listed.data?.sessions.map((s) => s.current)).toEqual([true, false, false]);
    const phoneId = (await listSessions({ fetch: phone.fetch })).data!.sessions[0]!.id;
    expect(await revokeSession(phoneId, { fetch: laptop.fetch })).toEqual({
      ok: true,
      status: 200,
      data: { ok: true, revoked: 1 },
    });
    expect(await phone.client.getSession()).toBeNull();
    expect(await revokeOtherSessions({ fetch: laptop.fetch })).toMatchObject({ ok: true, data: { revoked: 1 } });
    expect(await tablet.client.getSession()).toBeNull();
    expect(await laptop.client.getSession()).toMatchObject({ user: { email: 'ada@example.com' } });
    expect(await listSessions({ fetch: phone.fetch })).toEqual({ ok: false, status: 401, error: 'UNAUTHENTICATED' });
  });

  it('unlinkAccount reports LAST_CREDENTIAL, and works while another method remains', async () => {
    const { browser, adapter, ada } = await engine();
    const b = browser();
    await b.client.signIn('credentials', SIGN_IN);
    expect(await unlinkAccount('credentials', { fetch: b.fetch })).toEqual({
      ok: false,
      status: 409,
      error: 'LAST_CREDENTIAL',
    });
    await adapter.linkAccount({ userId: ada.id, type: 'oauth', provider: 'github', providerAccountId: '1' });
    expect(await unlinkAccount('github', { fetch: b.fetch })).toMatchObject({ ok: true, status: 200 });
    expect(await adapter.listAccounts(ada.id)).toHaveLength(1);
  });

  it('deleteAccount deletes the user and the store turns unauthenticated before it resolves', async () => {
    const { browser, adapter, ada } = await engine();
    const b = browser();
    const store = b.client.createAuthStore();
    const stop = store.subscribe(() => {});
    await b.client.signIn('credentials', SIGN_IN);
    expect(store.getState().status).toBe('authenticated');
    expect(await deleteAccount({ password: 'wrong-password' }, { fetch: b.fetch })).toEqual({
      ok: false,
      status: 401,
      error: 'INVALID_CREDENTIALS',
    });
    expect(await deleteAccount({}, { fetch: b.fetch })).toEqual({ ok: true, status: 200, data: { ok: true } });
    expect(store.getState().status).toBe('unauthenticated');
    expect(await adapter.getUser(ada.id)).toBeNull();
    stop();
  });
});
