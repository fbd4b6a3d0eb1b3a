/**
 * `createAuth({ emailAndPassword })` in process: sign-up, verification,
 * forgot / reset, password and email change, and the attacks on them.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAuth, type CreateAuthOptions } from '../auth.js';
import { createLoginRateLimiter, createPasswordResetRateLimiter } from '../rate-limit/factories.js';
import { createFixedWindowStorage } from '../rate-limit/storage.js';
import { createMemoryAdapter } from '../storage/memory.js';
import { ORIGIN, SECRET, TestClient } from '../testing/fixtures.js';
import type { AccountMail, EmailAndPasswordOptions, EmailChangeNotice } from './options.js';

afterEach(() => vi.useRealTimers());

const PASSWORD = 'correct horse battery';

function setup(options: Partial<EmailAndPasswordOptions> = {}, extra: Partial<CreateAuthOptions> = {}) {
  const adapter = createMemoryAdapter();
  const outbox: (AccountMail & Partial<EmailChangeNotice> & { kind: 'verify' | 'reset' | 'notice' })[] = [];
  const auth = createAuth({
    secret: SECRET,
    baseURL: ORIGIN,
    adapter,
    providers: [],
    logger: { error: () => {}, warn: () => {} },
    emailAndPassword: {
      sendVerificationEmail: (mail) => void outbox.push({ ...mail, kind: 'verify' }),
      sendResetPassword: (mail) => void outbox.push({ ...mail, kind: 'reset' }),
      sendEmailChangeNotice: (mail) => void outbox.push({ ...mail, kind: 'notice' }),
      ...options,
    },
    ...extra,
  });
  const last = async (kind: 'verify' | 'reset' | 'notice') => {
    await new Promise((r) => setTimeout(r, 0)); // mails sent without being awaited
    const mail = outbox.filter((m) => m.kind === kind).at(-1);
    if (!mail) throw new Error(`no ${kind} mail`);
    return mail;
  };
  return { auth, adapter, outbox, last, client: () => new TestClient(auth) };
}

/** Follows a link from a mail: its path and query on the test origin. */
const pathOf = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

describe('sign-up', () => {
  it('creates the account, signs in (autoSignIn), sends a verification link on baseURL, and the link verifies the address', async () => {
    const { client, adapter, last } = setup();
    const c = client();
    const res = await c.postJson('/auth/signup', { email: 'Ada@Example.com', password: PASSWORD, name: 'Ada' });
    expect(res.status).toBe(200);
    expect((await c.session())?.user.email).toBe('ada@example.com');
    const user = (await adapter.getUserByEmail('ada@example.com'))!;
    expect(user.emailVerified).toBeNull();
    const mail = await last('verify');
    expect(mail.url.startsWith(`${ORIGIN}/auth/verify-email?token=`)).toBe(true);
    const opened = await c.followLink(mail.url);
    expect(opened.status).toBe(303);
    expect((await adapter.getUser(user.id))!.emailVerified).toBeInstanceOf(Date);
    // Single use.
    const token = new URL(mail.url).searchParams.get('token')!;
    expect((await c.postJson('/auth/verify-email', { token })).status).toBe(400);
  });

  it('answers 409 EMAIL_TAKEN to a JSON client, and leaves the first account untouched', async () => {
    const { client, adapter } = setup();
    await client().postJson('/auth/signup', { email: 'ada@example.com', password: PASSWORD });
    const before = await adapter.getUserByEmail('ada@example.com');
    const res = await client().postJson('/auth/signup', { email: 'ADA@example.com', password: 'another password' });
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ error: { code: 'EMAIL_TAKEN' } });
    expect(await adapter.getUserByEmail('ada@example.com')).toEqual(before);
  });

  it('with requireEmailVerification answers the same neutral 200 for a taken and a new email, and signs nobody in', async () => {
    const { client } = setup({ requireEmailVerification: true });
    await client().postJson('/auth/signup', { email: 'ada@example.com', password: PASSWORD });
    const a = client();
    const taken = await a.postJson('/auth/signup', { email: 'ada@example.com', password: PASSWORD });
    const b = client();
    const fresh = await b.postJson('/auth/signup', { email: 'bob@example.com', password: PASSWORD });
    expect([taken.status, await taken.text()]).toEqual([fresh.status, await fresh.text()]);
    expect(await a.session()).toBeNull();
    expect(await b.session()).toBeNull();
  });

  it('refuses short, long and malformed input with 400, and needs the CSRF token', async () => {
    const { client } = setup({ minPasswordLength: 10, maxPasswordLength: 20 });
    const c = client();
    for (const body of [
      { email: 'x@example.com', password: 'short' },
      { email: 'x@example.com', password: 'x'.repeat(21) },
      { email: 'not-an-email', password: PASSWORD },
      { email: 'x@example.com' },
    ]) {
      const res = await c.postJson('/auth/signup', body);
      expect(res.status).toBe(400);
    }
    const forged = await c.request('/auth/signup', {
      method: 'POST',
      headers: { origin: ORIGIN, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ email: 'x@example.com', password: PASSWORD }),
    });
    expect(forged.status).toBe(403);
  });

  it('runs the signIn callback: false stores nothing, a URL sends the browser there', async () => {
    const denied = setup({}, { callbacks: { signIn: () => false } });
    expect(
      (await denied.client().postJson('/auth/signup', { email: 'ada@example.com', password: PASSWORD })).status,
    ).toBe(403);
    expect(await denied.adapter.getUserByEmail('ada@example.com')).toBeNull();
    const redirected = setup({}, { callbacks: { signIn: () => '/closed' } });
    const res = await redirected.client().postForm('/auth/signup', { email: 'ada@example.com', password: PASSWORD });
    expect([res.status, res.headers.get('location')]).toEqual([303, '/closed']);
    expect(await redirected.adapter.getUserByEmail('ada@example.com')).toBeNull();
  });

  it('serves the sign-up page, and the sign-in page links to it and to "Forgot password?"', async () => {
    const { client } = setup();
    const page = await client().request('/auth/signup');
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('name="password"');
    const signIn = await (await client().request('/auth/signin')).text();
    expect(signIn).toContain('href="/auth/signup"');
    expect(signIn).toContain('href="/auth/password/forgot"');
  });
});

describe('requireEmailVerification', () => {
  it('refuses a correct password of an unverified account with 403 EMAIL_NOT_VERIFIED and sends a fresh link; after verifying, sign-in works', async () => {
    const { client, outbox, last } = setup({ requireEmailVerification: true });
    await client().postJson('/auth/signup', { email: 'ada@example.com', password: PASSWORD });
    const sent = outbox.length;
    const c = client();
    const refused = await c.signIn('ada@example.com', PASSWORD);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ error: { code: 'EMAIL_NOT_VERIFIED' } });
    expect(await c.session()).toBeNull();
    const mail = await last('verify');
    expect(outbox.length).toBe(sent + 1);
    await c.followLink(mail.url);
    expect((await c.signIn('ada@example.com', PASSWORD)).status).toBe(200);
    expect((await c.session())?.user.email).toBe('ada@example.com');
  });
});

describe('forgot and reset password', () => {
  const generous = () => ({
    rateLimit: {
      login: false as const,
      passwordReset: createPasswordResetRateLimiter(createFixedWindowStorage(), { limit: 10_000 }),
    },
  });

  it('resets: old sessions end, the old password is refused, the new one works, the link works once and marks the email verified', async () => {
    const { client, adapter, last } = setup({}, generous());
    const first = client();
    await first.postJson('/auth/signup', { email: 'ada@example.com', password: PASSWORD });
    expect(await first.session()).not.toBeNull();
    expect((await client().postJson('/auth/password/forgot', { email: 'ada@example.com' })).status).toBe(200);
    const mail = await last('reset');
    expect(mail.url.startsWith(`${ORIGIN}/auth/password/reset?token=`)).toBe(true);
    const token = new URL(mail.url).searchParams.get('token')!;
    const page = await client().request(pathOf(mail.url));
    expect(await page.text()).toContain('name="token"');
    expect(page.headers.get('cache-control')).toBe('no-store');
    const reset = await client().postJson('/auth/password/reset', { token, password: 'a brand new password' });
    expect(reset.status).toBe(200);
    expect(await first.session()).toBeNull();
    expect((await client().signIn('ada@example.com', PASSWORD)).status).toBe(401);
    expect((await client().signIn('ada@example.com', 'a brand new password')).status).toBe(200);
    expect((await adapter.getUserByEmail('ada@example.com'))!.emailVerified).toBeInstanceOf(Date);
    const again = await client().postJson('/auth/password/reset', { token, password: 'yet another password' });
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({ error: { code: 'TOKEN_INVALID' } });
  });

  it('refuses an expired link (1 h), a link for another purpose, and a tampered one', async () => {
    const { client, last } = setup({}, generous());
    await client().postJson('/auth/signup', { email: 'ada@example.com', password: PASSWORD });
    const verifyToken = new URL((await last('verify')).url).searchParams.get('token')!;
    expect(
      (await client().postJson('/auth/password/reset', { token: verifyToken, password: 'a brand new password' }))
        .status,
    ).toBe(400);
    await client().postJson('/auth/password/forgot', { email: 'ada@example.com' });
    const token = new URL((await last('reset')).url).searchParams.get('token')!;
    expect(
      (
        await client().postJson('/auth/password/reset', {
          token: `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`,
          password: 'a brand new password',
        })
      ).status,
    ).toBe(400);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 3601_000);
    expect((await client().postJson('/auth/password/reset', { token, password: 'a brand new password' })).status).toBe(
      400,
    );
  });

  it('the reset of an unverified account removes credentials added before the email was proven (pre-hijacking)', async () => {
    const { client, adapter, last } = setup({}, generous());
    await client().postJson('/auth/signup', { email: 'victim@example.com', password: 'attacker password' });
    const user = (await adapter.getUserByEmail('victim@example.com'))!;
    await adapter.linkAccount({ userId: user.id, type: 'oauth', provider: 'github', providerAccountId: 'attacker' });
    await client().postJson('/auth/password/forgot', { email: 'victim@example.com' });
    const token = new URL((await last('reset')).url).searchParams.get('token')!;
    expect((await client().postJson('/auth/password/reset', { token, password: 'the owner password' })).status).toBe(
      200,
    );
    expect((await adapter.listAccounts(user.id)).map((a) => a.provider)).toEqual(['credentials']);
    expect((await client().signIn('victim@example.com', 'attacker password')).status).toBe(401);
  });

  it('answers forgot-password with the same bytes for known and unknown addresses (property)', async () => {
    const { client } = setup({}, generous());
    await client().postJson('/auth/signup', { email: 'ada@example.com', password: PASSWORD });
    const c = client();
    const answer = async (email: string, json: boolean) => {
      const res = json
        ? await c.postJson('/auth/password/forgot', { email })
        : await c.postForm('/auth/password/forgot', { email });
      return `${res.status} ${[...res.headers].filter(([k]) => k !== 'date').join(';')} ${await res.text()}`;
    };
    const known = { json: await answer('ada@example.com', true), html: await answer('ada@example.com', false) };
    await fc.assert(
      fc.asyncProperty(fc.emailAddress(), fc.boolean(), async (email, json) => {
        expect(await answer(email, json)).toBe(json ? known.json : known.html);
      }),
      { numRuns: 40 },
    );
  });

  it('builds the link on baseURL whatever Host the request names', async () => {
    const { auth, last } = setup({}, generous());
    const c = new TestClient(auth);
    await c.postJson('/auth/signup', { email: 'ada@example.com', password: PASSWORD });
    const token = await c.csrf();
    await auth.handler(
      new Request('http://evil.test/auth/password/forgot', {
        method: 'POST',
        headers: {
          origin: 'http://evil.test',
          'content-type': 'application/json',
          accept: 'application/json',
          cookie: c.cookieHeader(),
        },
        body: JSON.stringify({ email: 'ada@example.com', csrfToken: token }),
      }),
    );
    await c.postJson(
      '/auth/password/forgot',
      { email: 'ada@example.com' },
      { host: 'evil.test', 'x-forwarded-host': 'evil.test' },
    );
    for (const mail of [await last('reset')]) expect(new URL(mail.url).origin).toBe(ORIGIN);
  });

  it('limits forgot-password requests per address with the passwordReset limiter (default 3 per hour)', async () => {
    const { client } = setup({}, { rateLimit: { login: createLoginRateLimiter(createFixedWindowStorage()) } });
    const c = client();
    const statuses = [];
    for (let i = 0; i < 4; i++)
      statuses.push(
        (await c.postJson('/auth/password/forgot', { email: 'ada@example.com' }, { 'x-test': String(i) })).status,
      );
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});

describe('password and email change', () => {
  it('changes the password with the current one; a wrong current password is 401; other sessions end by default', async () => {
    const { client } = setup();
    const a = client();
    await a.postJson('/auth/signup', { email: 'ada@example.com', password: PASSWORD });
    const b = client();
    await b.signIn('ada@example.com', PASSWORD);
    const wrong = await a.postJson('/auth/password/change', {
      currentPassword: 'nope nope nope',
      newPassword: 'the next password',
    });
    expect([wrong.status, ((await wrong.json()) as any).error.code]).toEqual([401, 'INVALID_CREDENTIALS']);
    const ok = await a.postJson('/auth/password/change', {
      currentPassword: PASSWORD,
      newPassword: 'the next password',
    });
    expect(ok.status).toBe(200);
    expect(await a.session()).not.toBeNull();
    expect(await b.session()).toBeNull();
    expect((await client().signIn('ada@example.com', 'the next password')).status).toBe(200);
    expect(
      (
        await client().postJson('/auth/password/change', {
          currentPassword: 'the next password',
          newPassword: 'x'.repeat(12),
        })
      ).status,
    ).toBe(401);
  });

  it('changes the email only when the link sent to the new address is confirmed, signed in, and tells the old address', async () => {
    const { client, adapter, last, outbox } = setup();
    const a = client();
    await a.postJson('/auth/signup', { email: 'ada@example.com', password: PASSWORD });
    const res = await a.postJson('/auth/email/change', { newEmail: 'lovelace@example.com', password: PASSWORD });
    expect(res.status).toBe(200);
    const mail = await last('verify');
    expect(mail.email).toBe('lovelace@example.com');
    expect(await adapter.getUserByEmail('ada@example.com')).not.toBeNull();
    const tampered = new URL(mail.url);
    tampered.searchParams.set('email', 'mallory@example.com');
    expect((await a.followLink(tampered.href)).status).toBe(400);
    expect(outbox.some((m) => m.kind === 'notice')).toBe(false);
    expect((await a.followLink(mail.url)).status).toBe(303);
    const user = await adapter.getUserByEmail('lovelace@example.com');
    expect(user?.emailVerified).toBeInstanceOf(Date);
    expect(await adapter.getUserByEmail('ada@example.com')).toBeNull();
    const notice = await last('notice');
    expect(notice).toMatchObject({ email: 'ada@example.com', newEmail: 'lovelace@example.com' });
    expect(notice.url.startsWith(`${ORIGIN}/auth/email/change/undo?token=`)).toBe(true);
  });

  it('needs a session', async () => {
    const { client } = setup();
    expect(
      (
        await client().postJson('/auth/password/change', {
          currentPassword: PASSWORD,
          newPassword: 'the next password',
        })
      ).status,
    ).toBe(401);
    expect((await client().postJson('/auth/email/change', { newEmail: 'x@example.com' })).status).toBe(401);
  });

  it('is not offered without sendEmailChangeNotice: the old address must hear of it', async () => {
    const { client } = setup({ sendEmailChangeNotice: undefined });
    const a = client();
    await a.postJson('/auth/signup', { email: 'ada@example.com', password: PASSWORD });
    const res = await a.postJson('/auth/email/change', { newEmail: 'x@example.com', password: PASSWORD });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: 'NOT_SUPPORTED' } });
  });
});

describe('configuration', () => {
  it('refuses bad options with INVALID_CONFIG naming the key', () => {
    const make =
      (emailAndPassword: Record<string, unknown>, adapter = true) =>
      () =>
        createAuth({
          secret: SECRET,
          baseURL: ORIGIN,
          providers: [],
          ...(adapter ? { adapter: createMemoryAdapter() } : {}),
          emailAndPassword: emailAndPassword as EmailAndPasswordOptions,
        });
    expect(make({ minPasswordLength: 0 })).toThrow(/emailAndPassword\.minPasswordLength/);
    expect(make({ minPasswordLength: 10, maxPasswordLength: 9 })).toThrow(/emailAndPassword\.maxPasswordLength/);
    expect(make({ requireEmailVerification: true })).toThrow(/emailAndPassword\.sendVerificationEmail/);
    expect(make({ signUp: 'yes' })).toThrow(/emailAndPassword\.signUp/);
    expect(make({}, false)).toThrow(/INVALID_CONFIG|adapter/);
  });

  it('signUp: false removes the route and the link', async () => {
    const { client } = setup({ signUp: false });
    expect((await client().request('/auth/signup')).status).toBe(404);
    expect(await (await client().request('/auth/signin')).text()).not.toContain('/auth/signup');
  });
});
