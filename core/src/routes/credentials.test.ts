import { describe, expect, it } from 'vitest';
import { makeFixture, EMAIL, PASSWORD, ORIGIN } from '../testing/fixtures.js';
import { sha256Hex } from '../crypto.js';

describe.each(['database', 'jwt'] as const)('credentials sign-in with %s sessions', (strategy) => {
  it('signs in over JSON, shows the session, then signs out', async () => {
    const { client, userId } = await makeFixture(strategy);
    const c = client();
    const res = await c.signIn();
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, url: '/' });
    const cookie = res.headers.getSetCookie().find((l) => l.startsWith('framework.session-token='))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\//);
    expect(cookie).not.toMatch(/Secure/i);
    const session = await c.session();
    expect(session?.user).toMatchObject({ id: userId, email: EMAIL, name: 'Ada' });
    expect(new Date(session!.expires).getTime()).toBeGreaterThan(Date.now() + 29 * 24 * 3600 * 1000);

    const out = await c.postJson('/auth/signout', {});
    expect(out.status).toBe(200);
    expect(out.headers.get('set-cookie')).toMatch(/framework\.session-token=;.*Max-Age=0/i);
    expect(await c.session()).toBeNull();
  });

  it('answers a wrong password and an unknown user identically (401 INVALID_CREDENTIALS)', async () => {
    const { client } = await makeFixture(strategy);
    const wrong = await client().signIn(EMAIL, 'not-the-password');
    const unknown = await client().signIn('nobody@example.com', PASSWORD);
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    const a = await wrong.json();
    expect(a).toEqual({ error: { code: 'INVALID_CREDENTIALS', message: 'Invalid credentials' } });
    expect(await unknown.json()).toEqual(a);
    expect(wrong.headers.getSetCookie().some((l) => l.startsWith('framework.session-token'))).toBe(false);
  });

  it('form sign-in redirects to the callbackUrl, and failures to the sign-in page with CredentialsSignin', async () => {
    const { client } = await makeFixture(strategy);
    const ok = await client().postForm('/auth/callback/credentials', {
      email: EMAIL,
      password: PASSWORD,
      callbackUrl: '/dashboard?tab=1',
    });
    expect(ok.status).toBe(303);
    expect(ok.headers.get('location')).toBe('/dashboard?tab=1');
    const bad = await client().postForm('/auth/callback/credentials', {
      email: EMAIL,
      password: 'nope-nope',
      callbackUrl: '/dashboard',
    });
    expect(bad.status).toBe(303);
    expect(bad.headers.get('location')).toBe('/auth/signin?error=CredentialsSignin&callbackUrl=%2Fdashboard');
  });

  it('refuses open redirects but allows trusted origins', async () => {
    // Seven sign-ins of one account: more than the default login limit allows.
    const { client } = await makeFixture(strategy, {
      trustedOrigins: ['https://admin.app.test'],
      rateLimit: { login: false },
    });
    for (const target of ['https://evil.test/x', '//evil.test', '/\\evil.test', 'javascript:alert(1)']) {
      const res = await client().postForm('/auth/callback/credentials', {
        email: EMAIL,
        password: PASSWORD,
        callbackUrl: target,
      });
      expect(res.headers.get('location'), target).toBe('/');
    }
    const trusted = await client().postForm('/auth/callback/credentials', {
      email: EMAIL,
      password: PASSWORD,
      callbackUrl: 'https://admin.app.test/home',
    });
    expect(trusted.headers.get('location')).toBe('https://admin.app.test/home');
    const absoluteSame = await client().postForm('/auth/callback/credentials', {
      email: EMAIL,
      password: PASSWORD,
      callbackUrl: `${ORIGIN}/x`,
    });
    expect(absoluteSame.headers.get('location')).toBe(`${ORIGIN}/x`);
  });

  it('the signIn callback can deny (AccessDenied) or redirect', async () => {
    const denied = await makeFixture(strategy, { callbacks: { signIn: () => false } });
    const res = await denied.client().signIn();
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('ACCESS_DENIED');
    const form = await denied.client().postForm('/auth/callback/credentials', { email: EMAIL, password: PASSWORD });
    expect(form.headers.get('location')).toBe('/auth/error?error=AccessDenied');

    const redirected = await makeFixture(strategy, {
      callbacks: { signIn: async ({ user, credentials }) => (user.email === credentials?.email ? '/welcome' : false) },
    });
    const c = redirected.client();
    const r = await c.signIn();
    expect(r.status).toBe(403);
    expect(await r.json()).toMatchObject({ error: { code: 'ACCESS_DENIED' }, url: '/welcome' });
    expect(await c.session()).toBeNull();
  });

  it('the session callback shapes getSession and GET /session', async () => {
    const { client, auth } = await makeFixture(strategy, {
      callbacks: {
        session: ({ session, user }) =>
          ({ ...session, user: { ...session.user, name: `${user.name}!` }, plan: 'pro' }) as never,
      },
    });
    const c = client();
    await c.signIn();
    const s = (await c.session()) as unknown as { plan: string; user: { name: string } };
    expect(s.plan).toBe('pro');
    expect(s.user.name).toBe('Ada!');
    const state = await auth.getSession(new Request(`${ORIGIN}/`, { headers: { cookie: c.cookieHeader() } }));
    expect(state.user?.name).toBe('Ada!');
  });

  it('a throwing authorize is a 500 CALLBACK_ERROR without details', async () => {
    const errors: string[] = [];
    const f = await makeFixture(strategy, {
      logger: { error: (m) => errors.push(m), warn: () => {} },
      providers: [
        (await import('../providers/credentials.js')).credentials({
          credentials: { email: { label: 'Email', type: 'email' } },
          authorize: () => {
            throw new Error('db password is hunter2');
          },
        }),
      ],
    });
    const res = await f.client().postJson('/auth/callback/credentials', { email: 'a@b.c' });
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(text).toContain('CALLBACK_ERROR');
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain('at ');
    expect(errors.join('\n')).toContain('authorize function threw');
  });
});

describe('database sessions', () => {
  it('stores only SHA-256 of the secret, and rotates the session at sign-in', async () => {
    const { client, adapter, userId } = await makeFixture('database');
    const c = client();
    await c.signIn();
    const first = c.cookies.get('framework.session-token')!;
    const [id, secret] = first.split('.');
    const row = await adapter.getSessionAndUser(id!);
    expect(row?.session.userId).toBe(userId);
    expect(row?.session.tokenHash).toBe(await sha256Hex(secret!));
    expect(row?.session.tokenHash).not.toContain(secret!);

    await c.signIn();
    const second = c.cookies.get('framework.session-token')!;
    expect(second).not.toBe(first);
    expect(await adapter.getSessionAndUser(id!)).toBeNull();
  });

  it('a forged secret for a real session id is not accepted, and cannot sign that session out', async () => {
    const { client, adapter } = await makeFixture('database');
    const c = client();
    await c.signIn();
    const [id] = c.cookies.get('framework.session-token')!.split('.');
    const attacker = client();
    attacker.cookies.set('framework.session-token', `${id}.${'A'.repeat(43)}`);
    expect(await attacker.session()).toBeNull();
    await attacker.postJson('/auth/signout', {});
    expect(await adapter.getSessionAndUser(id!)).not.toBeNull();
  });

  it('"sign out everywhere" ends every session of the user', async () => {
    const { client, adapter, userId } = await makeFixture('database');
    const a = client();
    const b = client();
    await a.signIn();
    await b.signIn();
    await a.postJson('/auth/signout', { everywhere: 'true' });
    expect(await b.session()).toBeNull();
    expect(await adapter.deleteUserSessions(userId)).toBe(0);
  });

  it('adopts a user returned by authorize that storage does not know yet', async () => {
    const { credentials } = await import('../providers/credentials.js');
    const f = await makeFixture('database', {
      providers: [
        credentials({
          credentials: { code: { label: 'Code', type: 'text' } },
          authorize: () => ({ id: 'ext-1', name: 'External' }),
        }),
      ],
    });
    const c = f.client();
    const res = await c.postJson('/auth/callback/credentials', { code: 'x' });
    expect(res.status).toBe(200);
    expect((await f.adapter.getUser('ext-1'))?.name).toBe('External');
    expect((await c.session())?.user.id).toBe('ext-1');
  });
});

describe('jwt callback', () => {
  it('runs with trigger signIn at sign-in and update on POST /session', async () => {
    const calls: string[] = [];
    const { client } = await makeFixture('jwt', {
      callbacks: {
        jwt: ({ token, trigger, session }) => {
          calls.push(trigger ?? 'refresh');
          if (trigger === 'update') return { ...token, plan: (session as { plan: string }).plan };
          return { ...token, plan: 'free' };
        },
        session: ({ session, token }) => ({ ...session, plan: token?.plan }) as never,
      },
    });
    const c = client();
    await c.signIn();
    expect(((await c.session()) as unknown as { plan: string }).plan).toBe('free');
    const res = await c.postJson('/auth/session', { plan: 'pro' });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { plan: string }).plan).toBe('pro');
    expect(((await c.session()) as unknown as { plan: string }).plan).toBe('pro');
    expect(calls).toEqual(['signIn', 'update']);
  });
});
