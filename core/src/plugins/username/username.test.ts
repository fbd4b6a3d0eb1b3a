/**
 * `username()` end to end through `auth.handler` with a cookie jar, on memory, SQLite and PostgreSQL: sign-up with a
 * username, sign-in with it (JSON and the no-JS form), the availability check and changing the name; and the attacks
 * as a class: look-alikes (Cyrillic, full width, case), invisible and bidi characters, races for one name, guessing
 * (lockouts shared with email sign-in), enumeration through answers or work, floods of availability checks, CSRF.
 */
import { describe, expect, it } from 'vitest';
import {
  createEmailVerificationRateLimiter,
  createFixedWindowStorage,
  createLoginRateLimiter,
} from '../../rate-limit.js';
import { createMemoryAdapter } from '../../storage/memory.js';
import { ORIGIN, type TestClient } from '../../testing/fixtures.js';
import { onEveryAdapter, PASSWORD, usernameAuth, type Open } from './fixture.test-helpers.js';

const setup = usernameAuth;

const errorCode = async (res: Response) => ((await res.json()) as { error?: { code: string } }).error?.code;
const signUp = (c: TestClient, email: string, name?: string) =>
  c.postJson('/auth/signup', { email, password: PASSWORD, ...(name !== undefined ? { username: name } : {}) });
const signIn = (c: TestClient, name: string, password = PASSWORD) =>
  c.postJson('/auth/username/sign-in', { username: name, password, callbackUrl: '/home' });
const available = async (c: TestClient, name: string) =>
  c.request(`/auth/username/available?username=${encodeURIComponent(name)}`, {
    headers: { accept: 'application/json' },
  });

/** The main flow, on one adapter. */
function flow(label: string, open: Open) {
  describe(`username() on ${label}`, () => {
    it('signs up with a username, signs in with it in any case or width, and changes it', async () => {
      const f = await setup(open);
      try {
        const a = f.client();
        const res = await signUp(a, 'ada@example.com', ' Ada_Lovelace ');
        expect(res.status).toBe(200);
        const me = await a.request('/auth/username', { headers: { accept: 'application/json' } });
        expect(await me.json()).toStrictEqual({ username: 'ada_lovelace', displayUsername: 'Ada_Lovelace' });

        const b = f.client();
        const ok = await signIn(b, 'ＡＤＡ_lovelace');
        expect(ok.status).toBe(200);
        expect(await ok.json()).toMatchObject({ ok: true, url: '/home' });
        expect((await b.session())?.user.email).toBe('ada@example.com');

        expect(await (await available(f.client(), 'ADA_LOVELACE')).json()).toStrictEqual({
          available: false,
          username: 'ada_lovelace',
        });
        const changed = await b.postJson('/auth/username/update', { username: 'Countess.Ada' });
        expect(await changed.json()).toStrictEqual({
          ok: true,
          username: 'countess.ada',
          displayUsername: 'Countess.Ada',
        });
        expect((await available(f.client(), 'ada_lovelace')).status).toBe(200);
        expect(await (await available(f.client(), 'ada_lovelace')).json()).toMatchObject({ available: true });
        expect((await signIn(f.client(), 'ada_lovelace')).status).toBe(401);
        expect((await signIn(f.client(), 'countess.ada')).status).toBe(200);

        const c = f.client();
        expect((await signUp(c, 'grace@example.com', 'COUNTESS.ADA')).status).toBe(409);
        expect(await f.adapter.getUserByEmail('grace@example.com')).toBeNull();
      } finally {
        await f.close();
      }
    });

    it('gives a name to one of many sign-ups racing for it', async () => {
      const f = await setup(open);
      try {
        const results = await Promise.all(
          [1, 2, 3, 4].map((i) => signUp(f.client(), `racer${i}@example.com`, 'prize')),
        );
        expect(results.map((r) => r.status).sort()).toStrictEqual([200, 409, 409, 409]);
        const winner = results.findIndex((r) => r.status === 200) + 1;
        const c = f.client();
        expect((await signIn(c, 'prize')).status).toBe(200);
        expect((await c.session())?.user.email).toBe(`racer${winner}@example.com`);
      } finally {
        await f.close();
      }
    });
  });
}

await onEveryAdapter('username_e2e', flow);

const memory: Open = async () => createMemoryAdapter();

describe('username() look-alikes and invisible characters', () => {
  it('refuses a look-alike of a taken name, and names with invisible, format or bidi characters', async () => {
    const f = await setup(memory, {}, { rateLimit: { login: false } });
    expect((await signUp(f.client(), 'ada@example.com', 'ada')).status).toBe(200);
    const c = f.client();
    // Cyrillic а (U+0430) in place of Latin a: refused whole, never a second "ada".
    for (const name of ['\u0430da', '\u0430\u0434\u0430', 'ad\u0251']) {
      const res = await signUp(c, 'mallory@example.com', name);
      expect(res.status).toBe(400);
      expect(await errorCode(res)).toBe('USERNAME_INVALID');
    }
    // Folds to "ada": taken.
    for (const name of ['ADA', 'Ａｄａ', 'ａda']) {
      const res = await signUp(c, 'mallory@example.com', name);
      expect(res.status).toBe(409);
      expect(await errorCode(res)).toBe('USERNAME_TAKEN');
    }
    for (const name of [
      'a\u200Bda',
      'ada\u2060',
      '\uFEFFada',
      '\u202Eada',
      'a\u200Dda',
      'ad a',
      'a\u00ADda',
      '.ada',
      'a..da',
    ])
      expect(await errorCode(await signUp(c, 'mallory@example.com', name))).toBe('USERNAME_INVALID');
    expect(await f.adapter.getUserByEmail('mallory@example.com')).toBeNull();
    // The sign-in with a look-alike finds nobody.
    expect(await errorCode(await signIn(f.client(), '\u0430da'))).toBe('INVALID_CREDENTIALS');
    expect((await signIn(f.client(), 'a\u200Bda')).status).toBe(401);
  });

  it('a validator widens the characters, never past the invisible and mixed-script checks', async () => {
    const f = await setup(memory, { validator: (name) => /^[\p{Ll}\p{Nd}_]+$/u.test(name) });
    expect((await signUp(f.client(), 'ivan@example.com', 'Иван')).status).toBe(200);
    expect((await signIn(f.client(), 'иван')).status).toBe(200);
    expect(await errorCode(await signUp(f.client(), 'x@example.com', 'иван\u200B'))).toBe('USERNAME_INVALID');
    // Latin "a" beside Cyrillic letters: mixed scripts.
    expect(await errorCode(await signUp(f.client(), 'x@example.com', 'иaн'))).toBe('USERNAME_INVALID');
  });
});

describe('username() sign-in', () => {
  it('answers alike for an unknown name and a wrong password, with the same reads', async () => {
    const reads: string[] = [];
    const base = createMemoryAdapter();
    const counted = new Proxy(base, {
      get(target, key) {
        const value = Reflect.get(target, key) as unknown;
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          reads.push(String(key));
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
    const f = await setup(async () => counted, {}, { rateLimit: { login: false } });
    await signUp(f.client(), 'ada@example.com', 'ada');
    reads.length = 0;
    const wrong = await signIn(f.client(), 'ada', 'not the password');
    const wrongReads = reads.splice(0);
    const unknown = await signIn(f.client(), 'nobody', 'not the password');
    const unknownReads = reads.splice(0);
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(await wrong.json()).toStrictEqual(await unknown.json());
    expect(unknownReads).toStrictEqual(wrongReads);
  });

  it('counts failures on the login limiter against the account, shared with email sign-in', async () => {
    const f = await setup(
      memory,
      {},
      {
        rateLimit: {
          login: createLoginRateLimiter(createFixedWindowStorage(), { limit: 3, window: 600, ipLimit: 100 }),
        },
      },
    );
    await signUp(f.client(), 'ada@example.com', 'ada');
    const c = f.client();
    for (let i = 0; i < 3; i++) expect((await signIn(c, 'ADA', 'wrong password')).status).toBe(401);
    expect((await signIn(c, 'ada')).status).toBe(429);
    // The same account by its email, from the same place: locked too.
    expect(
      (await c.postJson('/auth/callback/credentials', { email: 'ada@example.com', password: PASSWORD })).status,
    ).toBe(429);
    // From elsewhere the owner still signs in.
    expect((await signIn(f.client(), 'ada')).status).toBe(200);
  });

  it('the default sign-in page carries a no-JS username form that signs in', async () => {
    const f = await setup(memory);
    await signUp(f.client(), 'ada@example.com', 'ada');
    const c = f.client();
    const page = await (await c.request('/auth/signin', { headers: { accept: 'text/html' } })).text();
    expect(page).toContain('action="/auth/username/sign-in"');
    expect(page).toContain('name="username"');
    const bad = await c.postForm('/auth/username/sign-in', {
      username: 'ada',
      password: 'nope-nope',
      callbackUrl: '/x',
    });
    expect(bad.status).toBe(303);
    expect(bad.headers.get('location')).toContain('error=CredentialsSignin');
    const good = await c.postForm('/auth/username/sign-in', { username: 'ada', password: PASSWORD, callbackUrl: '/x' });
    expect(good.status).toBe(303);
    expect(good.headers.get('location')).toBe('/x');
    expect((await c.session())?.user.email).toBe('ada@example.com');
  });

  it('with email verification on, the held name goes to the new account, which must verify before signing in', async () => {
    const links: string[] = [];
    const f = await setup(
      memory,
      {},
      {
        emailAndPassword: { requireEmailVerification: true, sendVerificationEmail: ({ url }) => void links.push(url) },
      },
    );
    const res = await signUp(f.client(), 'ada@example.com', 'Ada');
    expect(res.status).toBe(200);
    expect(await errorCode(await signUp(f.client(), 'bob@example.com', 'ada'))).toBe('USERNAME_TAKEN');
    expect(await errorCode(await signIn(f.client(), 'ada'))).toBe('EMAIL_NOT_VERIFIED');
    const user = (await f.adapter.getUserByEmail('ada@example.com'))!;
    await f.adapter.updateUser(user.id, { emailVerified: new Date() });
    const c = f.client();
    expect((await signIn(c, 'ada')).status).toBe(200);
    expect(await (await c.request('/auth/username', { headers: { accept: 'application/json' } })).json()).toStrictEqual(
      {
        username: 'ada',
        displayUsername: 'Ada',
      },
    );
  });
});

describe('username() held at a verified sign-up', () => {
  it('the first email sign-in of the new account takes the name it chose', async () => {
    const f = await setup(
      memory,
      {},
      { emailAndPassword: { requireEmailVerification: true, sendVerificationEmail: () => {} } },
    );
    expect((await signUp(f.client(), 'ada@example.com', 'Ada')).status).toBe(200);
    const user = (await f.adapter.getUserByEmail('ada@example.com'))!;
    await f.adapter.updateUser(user.id, { emailVerified: new Date() });
    const c = f.client();
    expect(
      (await c.postJson('/auth/callback/credentials', { email: 'ada@example.com', password: PASSWORD })).status,
    ).toBe(200);
    expect(await (await c.request('/auth/username', { headers: { accept: 'application/json' } })).json()).toStrictEqual(
      {
        username: 'ada',
        displayUsername: 'Ada',
      },
    );
  });
});

describe('username() availability and changes', () => {
  it('limits availability checks per IP, so names cannot be listed', async () => {
    const f = await setup(
      memory,
      {},
      {
        rateLimit: {
          emailVerification: createEmailVerificationRateLimiter(createFixedWindowStorage(), { limit: 3, window: 3600 }),
        },
      },
    );
    const c = f.client();
    for (let i = 0; i < 3; i++) expect((await available(c, `name${i}`)).status).toBe(200);
    const refused = await available(c, 'name9');
    expect(refused.status).toBe(429);
    expect(await errorCode(refused)).toBe('RATE_LIMITED');
    expect((await c.postJson('/auth/username/available', { username: 'name9' })).status).toBe(429);
    expect((await available(f.client(), 'name9')).status).toBe(200);
  });

  it('refuses state changes without the CSRF token, signed out, or to a taken name', async () => {
    const f = await setup(memory);
    await signUp(f.client(), 'ada@example.com', 'ada');
    const c = f.client();
    await signUp(c, 'bob@example.com', 'bob');
    const forged = await c.request('/auth/username/update', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.test' },
      body: 'username=mallory',
    });
    expect(forged.status).toBe(403);
    expect(await errorCode(await f.client().postJson('/auth/username/update', { username: 'x_y_z' }))).toBe(
      'UNAUTHENTICATED',
    );
    expect(await errorCode(await c.postJson('/auth/username/update', { username: 'ADA' }))).toBe('USERNAME_TAKEN');
    expect(await errorCode(await c.postJson('/auth/username/update', { username: 'b\u200Bob' }))).toBe(
      'USERNAME_INVALID',
    );
    expect((await signIn(f.client(), 'bob')).status).toBe(200);
    // The no-JS page and form.
    const page = await (await c.request('/auth/username/update', { headers: { accept: 'text/html' } })).text();
    expect(page).toContain('<strong>bob</strong>');
    const saved = await c.postForm('/auth/username/update', { username: 'Robert' });
    expect(saved.status).toBe(303);
    expect(saved.headers.get('location')).toBe('/auth/username/update?saved=1');
    const taken = await c.postForm('/auth/username/update', { username: 'ada' });
    expect(taken.status).toBe(409);
    expect(await taken.text()).toContain('That username is taken');
  });

  it('releases the name when the account is deleted', async () => {
    const f = await setup(memory);
    const c = f.client();
    await signUp(c, 'ada@example.com', 'ada');
    const deleted = await c.postJson('/auth/account/delete', { password: PASSWORD });
    expect(deleted.status).toBeLessThan(400);
    expect(await (await available(f.client(), 'ada')).json()).toMatchObject({ available: true });
  });
});

describe('username() on auth.api and against open redirects', () => {
  it('its routes are typed methods of auth.api', async () => {
    const f = await setup(memory);
    await signUp(f.client(), 'ada@example.com', 'ada');
    const free = await f.auth.api.isUsernameAvailable({ username: 'Grace' });
    expect(free).toStrictEqual({ available: true, username: 'grace' });
    const { data, headers } = await f.auth.api.signInUsername(
      { username: 'ada', password: PASSWORD },
      { returnHeaders: true },
    );
    expect(data.ok).toBe(true);
    const cookie = headers
      .getSetCookie()
      .map((line) => line.split(';')[0])
      .join('; ');
    const mine = await f.auth.api.getUsername(undefined, { headers: { cookie } });
    expect(mine).toStrictEqual({ username: 'ada', displayUsername: 'ada' });
    const updated = await f.auth.api.updateUsername({ username: 'Ada.L' }, { headers: { cookie } });
    expect(updated.displayUsername).toBe('Ada.L');
    // @ts-expect-error -- the body is typed: a username is required
    await expect(f.auth.api.isUsernameAvailable({})).rejects.toMatchObject({ code: 'USERNAME_INVALID' });
  });

  it('never sends the browser to another origin after signing in', async () => {
    const f = await setup(memory);
    await signUp(f.client(), 'ada@example.com', 'ada');
    for (const callbackUrl of ['https://evil.test/x', '//evil.test/x', '/\\evil.test', 'https:%2F%2Fevil.test']) {
      const res = await f
        .client()
        .postJson('/auth/username/sign-in', { username: 'ada', password: PASSWORD, callbackUrl });
      expect(res.status).toBe(200);
      const { url } = (await res.json()) as { url: string };
      expect(new URL(url, ORIGIN).origin).toBe(ORIGIN);
    }
  });
});
