/**
 * `anonymous()` end to end through `auth.handler` with a cookie jar, on the memory adapter, SQLite and PostgreSQL:
 * a guest session, its link to the account the guest then signs up or in with (the guest deleted with its
 * sessions), the routes a guest is refused on, the flood limit and CSRF.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { postgresSchemas } from '../../../../test-support/pg-schemas.js';
import type { CreateAuthOptions } from '../../auth.js';
import { createLoginRateLimiter, createFixedWindowStorage } from '../../rate-limit.js';
import { createMemoryAdapter } from '../../storage/memory.js';
import { createSqliteAdapter } from '../../storage/sql/sqlite.js';
import type { StorageAdapter } from '../../storage/types.js';
import { EMAIL, ORIGIN, PASSWORD, makeFixture, type TestClient } from '../../testing/fixtures.js';
import { apiKeys } from '../api-keys/index.js';
import { passkey } from '../passkey/provider.js';
import { twoFactor } from '../two-factor/index.js';
import { anonymous, type AnonymousExtension } from './index.js';
import type { AnonymousLink, AnonymousOptions } from './options.js';
import { postgresAdapterIn } from '../../storage/sql/sql-test-support.js';

const pg = await postgresSchemas('anonymous_e2e');
afterAll(() => pg.dropAll());

async function openPostgres(): Promise<StorageAdapter> {
  return postgresAdapterIn(pg);
}

const adapters: [string, () => Promise<StorageAdapter>][] = [
  ['memory', async () => createMemoryAdapter()],
  ['sqlite', async () => createSqliteAdapter({ filename: ':memory:' })],
  ...(pg.available ? [['postgres', openPostgres] as [string, () => Promise<StorageAdapter>]] : []),
];

async function setup(
  options: AnonymousOptions = {},
  overrides: Partial<CreateAuthOptions> = {},
  open: () => Promise<StorageAdapter> = async () => createMemoryAdapter(),
) {
  const links: AnonymousLink[] = [];
  const adapter = await open();
  const f = await makeFixture('database', {
    adapter,
    baseURL: ORIGIN,
    emailAndPassword: {},
    plugins: [anonymous({ onLinkAccount: (l) => void links.push(l), ...options })],
    ...overrides,
  });
  await f.auth.migrate();
  let n = 0;
  const client = () => {
    const c = f.client();
    c.ip = `198.51.100.${++n}`;
    return c;
  };
  const ext = () => (f.auth.extensions as unknown as { anonymous: AnonymousExtension }).anonymous;
  return { ...f, client, links, ext, close: () => adapter.close?.() };
}

const errorCode = async (res: Response) => ((await res.json()) as { error?: { code: string } }).error?.code;
const guestIn = async (c: TestClient) => {
  const res = await c.postJson('/auth/anonymous/sign-in', {});
  expect(res.status).toBe(200);
  const session = await c.session();
  expect(session?.user.id).toBeTruthy();
  return session!.user.id;
};

describe.each(adapters)('anonymous() on %s', (_name, open) => {
  it('a guest who signs up is linked to the new user, then deleted with its sessions', async () => {
    const f = await setup({}, {}, open);
    try {
      const c = f.client();
      const guestId = await guestIn(c);
      expect(await f.ext().isAnonymous(guestId)).toBe(true);
      const guestCookie = c.cookieHeader();
      const up = await c.postJson('/auth/signup', { email: 'grace@example.com', password: PASSWORD });
      expect(up.status).toBe(200);
      const me = await c.session();
      expect(me?.user.email).toBe('grace@example.com');
      expect(f.links).toHaveLength(1);
      expect(f.links[0]!.anonymousUser.id).toBe(guestId);
      expect(f.links[0]!.newUser.id).toBe(me!.user.id);
      expect(await f.adapter.getUser(guestId)).toBeNull();
      expect(await f.ext().isAnonymous(guestId)).toBe(false);
      expect(await f.ext().isAnonymous(me!.user.id)).toBe(false);
      // The guest's old cookie no longer works.
      const stale = await f.auth.handler(
        new Request(`${ORIGIN}/auth/session`, { headers: { cookie: guestCookie, accept: 'application/json' } }),
      );
      expect(await stale.json()).toBeNull();
    } finally {
      await f.close();
    }
  });
});

describe('anonymous() linking', () => {
  it('a guest who signs in to an existing account is linked to it and deleted', async () => {
    const f = await setup();
    const c = f.client();
    const guestId = await guestIn(c);
    expect((await c.signIn()).status).toBe(200);
    expect((await c.session())?.user.id).toBe(f.userId);
    expect(f.links.map((l) => [l.anonymousUser.id, l.newUser.id])).toStrictEqual([[guestId, f.userId]]);
    expect(await f.adapter.getUser(guestId)).toBeNull();
  });

  it('every session of the guest ends, not only the one that signed in', async () => {
    const f = await setup();
    const c = f.client();
    const guestId = await guestIn(c);
    // The same guest on another device (say the app issued it a second session).
    const other = await f.auth.createSession(guestId);
    const otherCookie = other.headers.get('set-cookie')!.split(';')[0]!;
    const read = (cookie: string) =>
      f.auth.handler(new Request(`${ORIGIN}/auth/session`, { headers: { cookie, accept: 'application/json' } }));
    expect(await (await read(otherCookie)).json()).not.toBeNull();
    expect((await c.signIn()).status).toBe(200);
    expect(await (await read(otherCookie)).json()).toBeNull();
  });

  it('a throw from onLinkAccount keeps the sign-in and the guest, and is logged by name', async () => {
    const logged: string[] = [];
    const f = await setup(
      {
        onLinkAccount: () => {
          throw new RangeError('cart service down');
        },
      },
      { logger: { error: (m) => void logged.push(m), warn: () => {} } },
    );
    const c = f.client();
    const guestId = await guestIn(c);
    expect((await c.signIn()).status).toBe(200);
    expect((await c.session())?.user.id).toBe(f.userId);
    expect(await f.adapter.getUser(guestId)).not.toBeNull();
    expect(await f.ext().isAnonymous(guestId)).toBe(true);
    expect(logged.join('\n')).toMatch(/onLinkAccount threw RangeError/);
    expect(logged.join('\n')).not.toMatch(/cart service down/);
  });

  it('a signed-in user who signs in again links nothing and deletes nobody', async () => {
    const f = await setup();
    const c = f.client();
    expect((await c.signIn()).status).toBe(200);
    expect((await c.signIn()).status).toBe(200);
    expect(f.links).toHaveLength(0);
    expect(await f.adapter.getUser(f.userId)).not.toBeNull();
  });

  it('a user (not a guest) replaced by another sign-in in the same browser is never deleted', async () => {
    const f = await setup();
    const c = f.client();
    expect((await c.signIn()).status).toBe(200);
    expect((await c.postJson('/auth/signup', { email: 'grace@example.com', password: PASSWORD })).status).toBe(200);
    expect(f.links).toHaveLength(0);
    expect(await f.adapter.getUser(f.userId)).not.toBeNull();
  });

  it('gives guests an address under emailDomain when set, none otherwise', async () => {
    const f = await setup({ emailDomain: 'guest.invalid' });
    const c = f.client();
    await guestIn(c);
    expect((await c.session())?.user.email).toMatch(/^guest-[0-9a-f]{24}@guest\.invalid$/);
    const g = await setup();
    const d = g.client();
    await guestIn(d);
    expect((await d.session())?.user.email).toBeNull();
  });

  it('refuses bad options at creation', () => {
    expect(() => anonymous({ emailDomain: 'Not A Domain' })).toThrow(/emailDomain/);
    expect(() => anonymous({ onLinkAccount: 'x' as never })).toThrow(/onLinkAccount/);
    expect(() => anonymous({ storage: {} as never })).toThrow(/storage/);
  });
});

describe('anonymous() sign-in', () => {
  it('refuses a browser that is already signed in', async () => {
    const f = await setup();
    const c = f.client();
    expect((await c.signIn()).status).toBe(200);
    const res = await c.postJson('/auth/anonymous/sign-in', {});
    expect(res.status).toBe(400);
    expect(await errorCode(res)).toBe('ANONYMOUS_ALREADY_SIGNED_IN');
    expect((await c.session())?.user.id).toBe(f.userId);
  });

  it('needs the CSRF token (a cross-site form cannot make guests)', async () => {
    const f = await setup();
    const c = f.client();
    const res = await c.request('/auth/anonymous/sign-in', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(403);
    expect(await c.session()).toBeNull();
  });

  it('a no-JS form gets a 303 to its callbackUrl with a session', async () => {
    const f = await setup();
    const c = f.client();
    const res = await c.postForm('/auth/anonymous/sign-in', { callbackUrl: '/shop' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/shop');
    expect(await c.session()).not.toBeNull();
  });

  it('the default sign-in page offers "Continue as guest", a form that signs in', async () => {
    const f = await setup();
    const c = f.client();
    const page = await (await c.request('/auth/signin', { headers: { accept: 'text/html' } })).text();
    const form =
      /<form method="post" action="\/auth\/anonymous\/sign-in">[\s\S]*?Continue as guest<\/button><\/form>/.exec(page);
    expect(form).not.toBeNull();
    expect(form![0]).toMatch(/name="csrfToken"/);
  });

  it('limits a flood from one IP on the login limiter', async () => {
    const login = createLoginRateLimiter(createFixedWindowStorage(), { limit: 3, window: 60 });
    const f = await setup({}, { rateLimit: { login } });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const c = f.client();
      c.ip = '203.0.113.9';
      statuses.push((await c.postJson('/auth/anonymous/sign-in', {})).status);
    }
    expect(statuses).toStrictEqual([200, 200, 200, 429, 429]);
    const elsewhere = f.client();
    expect((await elsewhere.postJson('/auth/anonymous/sign-in', {})).status).toBe(200);
  });
});

describe('anonymous() guards', () => {
  const routes: [string, Record<string, unknown>][] = [
    ['/auth/password/change', { currentPassword: PASSWORD, newPassword: 'another-long-password' }],
    ['/auth/email/change', { email: 'new@example.com' }],
    ['/auth/two-factor/enable', { password: PASSWORD }],
    ['/auth/two-factor/confirm', { code: '000000' }],
    ['/auth/passkey/register/options', {}],
    ['/auth/passkey/register/verify', {}],
    ['/auth/api-keys', { name: 'ci' }],
  ];
  const withAll = () =>
    setup(
      {},
      {
        plugins: [
          anonymous(),
          twoFactor(),
          apiKeys(),
          passkey({ rpName: 'Test', rpId: 'app.test', origin: 'http://app.test' }),
        ],
      },
    );

  it.each(routes)('refuses a guest on %s with 403 ANONYMOUS_NOT_ALLOWED', async (path, body) => {
    const f = await withAll();
    const c = f.client();
    await guestIn(c);
    const res = await c.postJson(path, body);
    expect(res.status).toBe(403);
    expect(await errorCode(res)).toBe('ANONYMOUS_NOT_ALLOWED');
  });

  it.each(routes)('lets a user who is no guest through on %s', async (path, body) => {
    const f = await withAll();
    const c = f.client();
    expect((await c.signIn(EMAIL, PASSWORD)).status).toBe(200);
    const res = await c.postJson(path, body);
    if (res.status === 403) expect(await errorCode(res)).not.toBe('ANONYMOUS_NOT_ALLOWED');
  });

  it('lets a guest list its API keys, update its name and delete its account', async () => {
    const f = await withAll();
    const c = f.client();
    const guestId = await guestIn(c);
    expect((await c.request('/auth/api-keys', { headers: { accept: 'application/json' } })).status).toBe(200);
    expect((await c.postJson('/auth/account/update', { name: 'Guest' })).status).toBe(200);
    expect((await c.postJson('/auth/account/delete', {})).status).toBe(200);
    expect(await f.adapter.getUser(guestId)).toBeNull();
    expect(await f.ext().isAnonymous(guestId)).toBe(false);
  });
});
