import { describe, expect, it } from 'vitest';
import { defineAuthCallbacks, defineAuthConfig, defineProvider } from './convention.js';
import { createAuth } from './auth.js';
import { credentials } from './providers/credentials.js';
import { AuthConfigError } from './errors.js';
import { createMemoryAdapter } from './storage/memory.js';

const SECRET = 'x'.repeat(32);
const provider = () =>
  credentials({ credentials: { email: { label: 'Email', type: 'email' } }, authorize: (): null => null });

describe('defineAuthConfig', () => {
  it('applies the documented defaults (core/README.md, Configuration)', () => {
    const c = defineAuthConfig({ session: { strategy: 'jwt' }, secret: SECRET });
    expect(c.basePath).toBe('/auth');
    expect(c.session).toEqual({ strategy: 'jwt', maxAge: 2592000, updateAge: 86400, revalidateAge: 60, freshAge: 300 });
    expect(c.cookies?.sessionToken).toEqual({
      name: 'framework.session-token',
      options: { secure: false, httpOnly: true, sameSite: 'lax', path: '/' },
    });
    expect(c.pages).toEqual({
      signIn: '/auth/signin',
      signOut: '/auth/signout',
      error: '/auth/error',
      verifyRequest: '/auth/verify-request',
    });
    expect(Object.isFrozen(c)).toBe(true);
  });

  it('derives page paths from basePath and keeps overrides', () => {
    const c = defineAuthConfig({ basePath: '/api/auth/', pages: { signIn: '/login', newUser: '/welcome' } });
    expect(c.basePath).toBe('/api/auth');
    expect(c.pages).toMatchObject({ signIn: '/login', signOut: '/api/auth/signout', newUser: '/welcome' });
  });

  it('makes cookies secure in production', () => {
    const prev = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      expect(defineAuthConfig({ secret: SECRET }).cookies?.sessionToken?.options?.secure).toBe(true);
      expect(() => defineAuthConfig({})).toThrow(/`secret` is required in production/);
    } finally {
      process.env.NODE_ENV = prev;
    }
  });

  it.each([
    [{ session: { strategy: 'jwt' } }, /"jwt" session strategy requires `secret`/],
    [{ session: { strategy: 'database', maxAge: -1 } }, /session\.maxAge must be a positive number of seconds, got -1/],
    [{ session: { strategy: 'database', maxAge: 0 } }, /session\.maxAge must be a positive/],
    [
      { session: { strategy: 'database', maxAge: 10, updateAge: 20 } },
      /updateAge \(20\) must not exceed session\.maxAge \(10\)/,
    ],
    [{ session: { strategy: 'database', updateAge: Number.NaN } }, /session\.updateAge must be a non-negative/],
    [{ session: { strategy: 'cookie' } }, /session\.strategy must be "database" or "jwt"/],
    [
      { session: { strategy: 'database', revalidateAge: -1 } },
      /session\.revalidateAge must be a non-negative number of seconds, got -1/,
    ],
    [{ session: { strategy: 'database', revalidateAge: '60' } }, /session\.revalidateAge must be a non-negative/],
    [
      { session: { strategy: 'database', freshAge: -5 } },
      /session\.freshAge must be a non-negative number of seconds, got -5/,
    ],
    [{ secret: 'short' }, /at least 32 characters/],
    [{ secret: [] }, /must not be an empty array/],
    [{ basePath: 'auth' }, /basePath must be a path starting with a single "\/"/],
    [{ basePath: '//evil' }, /basePath must be a path/],
    [{ cookies: { sessionToken: { name: 'bad name;' } } }, /cookie-name token/],
    [{ cookies: { sessionToken: { options: { sameSite: 'none' } } } }, /sameSite "none" requires secure/],
    [{ pages: { signIn: 'https://evil.test' } }, /pages\.signIn must be a path/],
  ])('rejects %j', (config, message) => {
    expect(() => defineAuthConfig(config as never)).toThrow(AuthConfigError);
    expect(() => defineAuthConfig(config as never)).toThrow(message);
  });
});

describe('createAuth config checks', () => {
  it('picks database with an adapter and jwt without', () => {
    expect(createAuth({ providers: [], adapter: createMemoryAdapter() }).config.session.strategy).toBe('database');
    expect(createAuth({ providers: [], secret: SECRET }).config.session.strategy).toBe('jwt');
  });

  it('rejects database sessions without an adapter, duplicate providers and bad trustedOrigins', () => {
    expect(() => createAuth({ providers: [], session: { strategy: 'database' } })).toThrow(/requires `adapter`/);
    expect(() =>
      createAuth({ secret: SECRET, session: { strategy: 'jwt' }, providers: [provider(), provider()] }),
    ).toThrow(/duplicate provider id "credentials"/);
    expect(() => createAuth({ providers: [], secret: SECRET, trustedOrigins: ['not a url'] })).toThrow(
      /trustedOrigins must be absolute URLs/,
    );
    expect(() => createAuth({ providers: [], secret: SECRET, maxBodySize: 0 })).toThrow(/maxBodySize/);
  });
});

describe('defineProvider and defineAuthCallbacks', () => {
  it('accept valid records and freeze them', () => {
    const p = defineProvider(provider());
    expect(p.id).toBe('credentials');
    expect(Object.isFrozen(p)).toBe(true);
    const cb = defineAuthCallbacks({ signIn: () => true });
    expect(Object.isFrozen(cb)).toBe(true);
  });

  it.each([
    [{ credentials: {}, authorize: (): null => null }, /at least one field/],
    [{ credentials: { email: { label: 'E', type: 'email' } } }, /authorize must be a function/],
    [
      { credentials: { email: { label: 'E', type: 'date' } }, authorize: (): null => null },
      /type must be text, email or password/,
    ],
    [
      { credentials: { csrfToken: { label: 'E', type: 'text' } }, authorize: (): null => null },
      /reserved field name "csrfToken"/,
    ],
    [
      { id: 'Bad Id', credentials: { a: { label: 'A', type: 'text' } }, authorize: (): null => null },
      /id must be 1–64 lowercase/,
    ],
  ])('credentials rejects %#', (options, message) => {
    expect(() => credentials(options as never)).toThrow(message);
  });

  it('rejects unknown callbacks and non-functions', () => {
    expect(() => defineAuthCallbacks({ signin: () => true } as never)).toThrow(/unknown callback "signin"/);
    expect(() => defineAuthCallbacks({ jwt: 'x' } as never)).toThrow(/"jwt" must be a function/);
  });
});
