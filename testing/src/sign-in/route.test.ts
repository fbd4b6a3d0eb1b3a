import { describe, expect, it } from 'vitest';
import { createAuth, createMemoryAdapter } from '@framework/auth';
import { TEST_SIGN_IN_HEADER, testSignInRoute } from '@framework/testing';

const SECRET = 'a-test-sign-in-secret-of-32-chars-at-least';

function authWith(env: Record<string, unknown> = {}) {
  return createAuth({
    baseURL: 'http://localhost',
    adapter: createMemoryAdapter(),
    providers: [],
    env,
    secret: 'a-session-secret-of-at-least-32-characters',
    logger: { error: () => {}, warn: () => {} },
    plugins: [testSignInRoute({ secret: SECRET, env: {} })],
  });
}

const signIn = (auth: ReturnType<typeof authWith>, headers: Record<string, string>, body: object) =>
  auth.handler(
    new Request('http://localhost/auth/test/sign-in', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    }),
  );

describe('testSignInRoute', () => {
  it('refuses to load in production, loudly', () => {
    expect(() => testSignInRoute({ secret: SECRET, env: { NODE_ENV: 'production' } })).toThrow(
      /refuses to load when NODE_ENV=production \(options.env\)/,
    );
    const before = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      // An `env` option of its own does not hide the process's NODE_ENV.
      expect(() => testSignInRoute({ secret: SECRET, env: {} })).toThrow(/\(process.env.NODE_ENV\)/);
    } finally {
      process.env.NODE_ENV = before;
    }
    expect(() => authWith({ NODE_ENV: 'production', AUTH_URL: 'https://app.example' })).toThrow(
      /refuses to load when NODE_ENV=production \(the auth `env`\)/,
    );
  });

  it('needs a secret of 32 characters', () => {
    expect(() => testSignInRoute({ secret: 'short', env: {} })).toThrow(/at least 32 characters/);
  });

  it('answers 404 without the secret, and creates nobody', async () => {
    const auth = authWith();
    const attempts: Record<string, string>[] = [
      {},
      { [TEST_SIGN_IN_HEADER]: `${SECRET}x` },
      { [TEST_SIGN_IN_HEADER]: '' },
    ];
    for (const headers of attempts) {
      const response = await signIn(auth, headers, { as: 'eve@example.com' });
      expect(response.status).toBe(404);
      expect(response.headers.getSetCookie()).toEqual([]);
    }
    expect(await auth.adapter!.getUserByEmail('eve@example.com')).toBeNull();
  });

  it('with the secret: creates a verified user with its roles and answers a working session cookie', async () => {
    const auth = authWith();
    const response = await signIn(auth, { [TEST_SIGN_IN_HEADER]: SECRET }, { as: 'ada@example.com', roles: 'a,b' });
    expect(response.status).toBe(200);
    const { user } = (await response.json()) as { user: { id: string; email: string } };
    expect(user.email).toBe('ada@example.com');
    expect(await auth.adapter!.getUser(user.id)).toMatchObject({ roles: ['a', 'b'], emailVerified: expect.any(Date) });
    const cookie = response.headers.getSetCookie()[0]!.split(';')[0]!;
    const session = await auth.getSession(new Request('http://localhost/', { headers: { cookie } }));
    expect(session.user?.id).toBe(user.id);
  });
});
