/**
 * JWT sessions end when storage says so: sign-out everywhere, a password
 * change, a role change and a deleted user all end them, at the latest
 * `session.revalidateAge` seconds later; a re-issued token takes its claims
 * from storage.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAuth, type Auth } from '../auth.js';
import { passwordAccounts } from '../password-accounts.js';
import { createMemoryAdapter } from '../storage/memory.js';
import type { StorageAdapter } from '../storage/types.js';
import { makeFixture, ORIGIN, SECRET, type Fixture } from '../testing/fixtures.js';

const COOKIE = 'framework.session-token';
const T0 = new Date('2026-01-01T00:00:00Z').getTime();
const read = (auth: Auth, token: string) =>
  auth.getSession(new Request(`${ORIGIN}/`, { headers: { cookie: `${COOKIE}=${token}` } }));

/** A second engine over the same storage: another process of the app. */
function peer(fixture: Fixture, adapter: StorageAdapter = fixture.adapter, session: Record<string, number> = {}): Auth {
  return createAuth({
    session: { strategy: 'jwt', ...session },
    secret: SECRET,
    adapter,
    providers: [],
  });
}

async function signedIn(fixture: Fixture): Promise<string> {
  const c = fixture.client();
  await c.signIn();
  return c.cookies.get(COOKIE)!;
}

/** The memory adapter, counting `getSessionVersion` calls. */
function counted(): { adapter: StorageAdapter; calls: () => number } {
  const inner = createMemoryAdapter();
  let calls = 0;
  const adapter: StorageAdapter = { ...inner, getSessionVersion: (id) => (calls++, inner.getSessionVersion(id)) };
  return { adapter, calls: () => calls };
}

const at = (seconds: number) => vi.setSystemTime(new Date(T0 + seconds * 1000));

afterEach(() => {
  vi.useRealTimers();
});

describe('jwt sessions with a storage adapter', () => {
  it('sign-out everywhere ends the other sessions: at once in this process, within revalidateAge in another', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    at(0);
    const fixture = await makeFixture('jwt');
    const other = peer(fixture);
    const [a, b] = [fixture.client(), fixture.client()];
    await a.signIn();
    await b.signIn();
    const bToken = b.cookies.get(COOKIE)!;
    expect((await read(fixture.auth, bToken)).user).not.toBeNull();
    expect((await read(other, bToken)).user).not.toBeNull();

    at(1);
    await a.postJson('/auth/signout', { everywhere: 'true' });
    const local = await read(fixture.auth, bToken);
    expect(local.user).toBeNull();
    expect(local.headers.getSetCookie()[0]).toMatch(/Max-Age=0/);
    expect((await read(other, bToken)).user).not.toBeNull(); // checked at 0 s: still inside its 60 s window
    at(61);
    expect((await read(other, bToken)).user).toBeNull();
    expect(await b.session()).toBeNull();

    const c = fixture.client();
    await c.signIn();
    expect((await c.session())?.user.email).toBe('ada@example.com');
  });

  it('a password change (setPassword) ends JWT sessions, and database sessions at once', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    at(0);
    const jwt = await makeFixture('jwt');
    const token = await signedIn(jwt);
    expect((await read(jwt.auth, token)).user).not.toBeNull();
    await passwordAccounts(jwt.adapter).setPassword(jwt.userId, 'a-new-password');
    expect((await read(jwt.auth, token)).user).not.toBeNull(); // checked at 0 s
    at(60);
    expect((await read(jwt.auth, token)).user).toBeNull();

    const db = await makeFixture('database');
    const c = db.client();
    await c.signIn();
    await passwordAccounts(db.adapter).setPassword(db.userId, 'a-new-password');
    expect(await c.session()).toBeNull();
    expect((await c.signIn('ada@example.com', 'a-new-password')).status).toBe(200);
    expect((await c.session())?.user.email).toBe('ada@example.com');
  });

  it('a role change ends the session; signing in again carries the new role', async () => {
    const fixture = await makeFixture('jwt', { session: { strategy: 'jwt', revalidateAge: 0 } });
    await fixture.adapter.updateUser(fixture.userId, { role: 'editor' });
    const c = fixture.client();
    await c.signIn();
    expect((await c.session())?.user).toMatchObject({ role: 'editor' });
    await fixture.adapter.updateUser(fixture.userId, { role: 'viewer' });
    expect(await c.session()).toBeNull();
    await c.signIn();
    expect((await c.session())?.user).toMatchObject({ role: 'viewer' });
    await fixture.adapter.updateUser(fixture.userId, { roles: ['viewer', 'billing'] });
    expect(await c.session()).toBeNull();
  });

  it('a user deleted from storage ends the session', async () => {
    const fixture = await makeFixture('jwt', { session: { strategy: 'jwt', revalidateAge: 0 } });
    const token = await signedIn(fixture);
    expect((await read(fixture.auth, token)).user).not.toBeNull();
    await fixture.adapter.deleteUser(fixture.userId);
    expect((await read(fixture.auth, token)).user).toBeNull();
  });

  it('storage is asked at most once per revalidateAge per token, and on every read with 0', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    at(0);
    const { adapter, calls } = counted();
    const fixture = await makeFixture('jwt', { adapter });
    const token = await signedIn(fixture);
    const before = calls();
    await Promise.all(Array.from({ length: 50 }, () => read(fixture.auth, token)));
    for (let i = 0; i < 50; i++) await read(fixture.auth, token);
    expect(calls() - before).toBe(1);
    at(59);
    await read(fixture.auth, token);
    expect(calls() - before).toBe(1);
    at(60);
    await read(fixture.auth, token);
    expect(calls() - before).toBe(2);

    const eager = peer(fixture, adapter, { revalidateAge: 0 });
    const start = calls();
    for (let i = 0; i < 5; i++) expect((await read(eager, token)).user).not.toBeNull();
    expect(calls() - start).toBe(5);
  });

  it('a re-issued token takes name, email and roles from storage, and keeps custom claims', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    at(0);
    const fixture = await makeFixture('jwt', {
      callbacks: {
        jwt: ({ token }) => ({ ...token, plan: token.plan ?? 'pro' }),
        session: ({ session, token }) => ({ ...session, plan: token?.plan }),
      },
    });
    const c = fixture.client();
    await c.signIn();
    // A profile edit does not end the session; the next re-issue carries it.
    await fixture.adapter.updateUser(fixture.userId, { name: 'Ada Lovelace', email: 'countess@example.com' });
    expect((await c.session())?.user.name).toBe('Ada');
    at(86_400);
    const refreshed = await c.session();
    expect(refreshed?.user).toMatchObject({ name: 'Ada Lovelace', email: 'countess@example.com' });
    expect(refreshed).toMatchObject({ plan: 'pro' });
    // POST /session (update) refreshes too.
    await fixture.adapter.updateUser(fixture.userId, { image: 'https://example.com/ada.png', name: null });
    const res = await c.postJson('/auth/session', { data: JSON.stringify({ theme: 'dark' }) });
    const updated = (await res.json()) as { user: Record<string, unknown> };
    expect(updated.user).toMatchObject({ image: 'https://example.com/ada.png', name: null });
  });

  it('re-issue refuses a revoked token instead of refreshing it', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    at(0);
    const fixture = await makeFixture('jwt');
    const token = await signedIn(fixture);
    await fixture.adapter.bumpSessionVersion(fixture.userId);
    at(86_400);
    const state = await read(fixture.auth, token);
    expect(state.user).toBeNull();
    expect(state.headers.getSetCookie()).toHaveLength(1);
    expect(state.headers.getSetCookie()[0]).toMatch(/Max-Age=0/);
  });

  it('a token issued without a session version (before this check existed) counts as version 0', async () => {
    const fixture = await makeFixture('jwt', { adapter: undefined, session: { strategy: 'jwt' } });
    const legacy = await signedIn(fixture);
    const payload = JSON.parse(Buffer.from(legacy.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
    expect(payload).not.toHaveProperty('sv');
    const upgraded = peer(fixture, fixture.adapter, { revalidateAge: 0 });
    expect((await read(upgraded, legacy)).user?.email).toBe('ada@example.com');
    await fixture.adapter.bumpSessionVersion(fixture.userId);
    expect((await read(upgraded, legacy)).user).toBeNull();
  });
});

describe('jwt sessions without a storage adapter', () => {
  it('carry no session version and cannot be revoked before they expire', async () => {
    const fixture = await makeFixture('jwt', { adapter: undefined });
    const [a, b] = [fixture.client(), fixture.client()];
    await a.signIn();
    await b.signIn();
    await a.postJson('/auth/signout', { everywhere: 'true' });
    expect((await b.session())?.user.email).toBe('ada@example.com');
  });
});
