import { afterEach, describe, expect, it, vi } from 'vitest';
import { SignJWT, UnsecuredJWT } from 'jose';
import * as nodeCrypto from 'node:crypto';
import { makeFixture, ORIGIN, SECRET } from '../testing/fixtures.js';

const DAY = 24 * 3600 * 1000;
const reqWith = (cookie: string) =>
  new Request(`${ORIGIN}/`, { headers: { cookie: `framework.session-token=${cookie}` } });

afterEach(() => {
  vi.useRealTimers();
});

describe('database session lifetime', () => {
  it('slides the expiry forward at most once per updateAge, forwarding the new cookie', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const start = new Date('2026-01-01T00:00:00Z');
    vi.setSystemTime(start);
    const { client, auth } = await makeFixture('database');
    const c = client();
    await c.signIn();
    const value = c.cookies.get('framework.session-token')!;

    vi.setSystemTime(new Date(start.getTime() + DAY / 2));
    const early = await auth.getSession(reqWith(value));
    expect(early.session?.expires.getTime()).toBe(start.getTime() + 30 * DAY);
    expect(early.headers.getSetCookie()).toEqual([]);

    vi.setSystemTime(new Date(start.getTime() + DAY + 1000));
    const later = await auth.getSession(reqWith(value));
    expect(later.session?.expires.getTime()).toBe(start.getTime() + DAY + 1000 + 30 * DAY);
    const [cookie] = later.headers.getSetCookie();
    expect(cookie).toContain(`framework.session-token=${value}`);
    expect(cookie).toMatch(/Max-Age=2592000/);

    const again = await auth.getSession(reqWith(value));
    expect(again.headers.getSetCookie()).toEqual([]);
  });

  it('an expired session gives null, expired=true, a cleared cookie, and is deleted', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-01-01T00:00:00Z'));
    const { client, auth, adapter } = await makeFixture('database', {
      session: { strategy: 'database', maxAge: 60, updateAge: 0 },
    });
    const c = client();
    await c.signIn();
    const value = c.cookies.get('framework.session-token')!;
    vi.setSystemTime(new Date('2026-01-01T00:01:01Z'));
    const state = await auth.getSession(reqWith(value));
    expect(state.session).toBeNull();
    expect(state.expired).toBe(true);
    expect(state.headers.getSetCookie()[0]).toMatch(/Max-Age=0/);
    expect(await adapter.getSessionAndUser(value.split('.')[0]!)).toBeNull();
  });

  it('garbage cookies give null and are cleared', async () => {
    const { auth } = await makeFixture('database');
    for (const v of ['', 'x', 'a.b', '../../etc', `${'a'.repeat(22)}.${'b'.repeat(43)}`]) {
      const state = await auth.getSession(reqWith(v));
      expect(state.session, v).toBeNull();
      expect(state.expired).toBe(false);
    }
  });
});

describe('jwt sessions', () => {
  it('reject tampered payloads, alg:none, foreign keys and malformed tokens', async () => {
    const { client, auth } = await makeFixture('jwt');
    const c = client();
    await c.signIn();
    const token = c.cookies.get('framework.session-token')!;
    expect((await auth.getSession(reqWith(token))).user).not.toBeNull();

    const [h, p, s] = token.split('.');
    const claims = JSON.parse(Buffer.from(p!, 'base64url').toString());
    const tampered = `${h}.${Buffer.from(JSON.stringify({ ...claims, sub: 'admin' })).toString('base64url')}.${s}`;
    const none = new UnsecuredJWT({ ...claims }).encode();
    const foreign = await new SignJWT({ ...claims })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode(SECRET));
    const hs512 = await new SignJWT({ ...claims })
      .setProtectedHeader({ alg: 'HS512' })
      .sign(nodeCrypto.randomBytes(64));
    // Other spellings of the genuine signature's bytes (a lenient base64url decoder takes them): refused.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const last = alphabet.indexOf(s!.at(-1)!);
    const respelled = [
      `${token}=`,
      `${h}.${p}.${s!.slice(0, 42)}${alphabet[last + 1]}`,
      `${h}.${p}.${s!.slice(0, 20)}\t${s!.slice(20)}`,
      `${h}.${p}.${s!.replace(/-/g, '+').replace(/_/g, '/')}`,
    ].filter((v) => v !== token);
    expect(Buffer.from(respelled[1]!.split('.')[2]!, 'base64url')).toEqual(Buffer.from(s!, 'base64url'));
    for (const bad of [tampered, none, foreign, hs512, `${token}x`, 'a.b.c', 'x'.repeat(9000), ...respelled]) {
      const state = await auth.getSession(reqWith(bad));
      expect(state.user, bad.slice(0, 40)).toBeNull();
      expect(state.expired).toBe(false);
    }
  });

  it('an expired token gives null with expired=true', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-01-01T00:00:00Z'));
    const { client, auth } = await makeFixture('jwt', { session: { strategy: 'jwt', maxAge: 60 } });
    const c = client();
    await c.signIn();
    const token = c.cookies.get('framework.session-token')!;
    expect((await auth.getSession(reqWith(token))).user).not.toBeNull();
    vi.setSystemTime(new Date('2026-01-01T00:01:01Z'));
    const state = await auth.getSession(reqWith(token));
    expect(state.user).toBeNull();
    expect(state.expired).toBe(true);
  });

  it('verifies tokens signed with a rotated-out secret listed second, and signs with the first', async () => {
    const OLD = SECRET;
    const NEW = 'a-brand-new-secret-a-brand-new-secret-0001';
    // Three engines, each with its own store: the sessions are checked only by their keys (no adapter).
    const before = await makeFixture('jwt', { secret: OLD, adapter: undefined });
    const c = before.client();
    await c.signIn();
    const oldToken = c.cookies.get('framework.session-token')!;

    const rotated = await makeFixture('jwt', { secret: [NEW, OLD], adapter: undefined });
    expect((await rotated.auth.getSession(reqWith(oldToken))).user?.email).toBe('ada@example.com');
    const dropped = await makeFixture('jwt', { secret: NEW, adapter: undefined });
    expect((await dropped.auth.getSession(reqWith(oldToken))).user).toBeNull();

    const c2 = rotated.client();
    await c2.signIn();
    expect((await dropped.auth.getSession(reqWith(c2.cookies.get('framework.session-token')!))).user).not.toBeNull();
  });

  it('re-issues the token after updateAge', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-01-01T00:00:00Z'));
    const { client, auth } = await makeFixture('jwt');
    const c = client();
    await c.signIn();
    const token = c.cookies.get('framework.session-token')!;
    expect((await auth.getSession(reqWith(token))).headers.getSetCookie()).toEqual([]);
    vi.setSystemTime(new Date('2026-01-02T00:00:01Z'));
    const state = await auth.getSession(reqWith(token));
    const [cookie] = state.headers.getSetCookie();
    expect(cookie).toMatch(/^framework\.session-token=ey/);
    expect(cookie).not.toContain(token);
    expect(state.session?.expires.toISOString()).toBe('2026-02-01T00:00:01.000Z');
  });
});
