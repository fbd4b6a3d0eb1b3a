import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { hashPassword, verifyPassword } from './password.js';
import { generateToken } from './token.js';
import {
  AuthError,
  ForbiddenError,
  InvalidCredentialsError,
  SessionExpiredError,
  UnauthenticatedError,
} from './errors.js';

describe('hashPassword / verifyPassword', () => {
  it('makes an argon2id PHC string with the OWASP parameters and a random salt', async () => {
    const a = await hashPassword('correct horse battery staple');
    const b = await hashPassword('correct horse battery staple');
    expect(a).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword('correct horse battery staple', a)).toBe(true);
    expect(await verifyPassword('correct horse battery stapler', a)).toBe(false);
  });

  it('returns false, never throws, for malformed hashes and bad input', async () => {
    const good = await hashPassword('pw-pw-pw-pw');
    for (const h of ['', 'plain', '$argon2id$broken', '$2b$10$abcdefghijklmnopqrstuv', good.slice(0, -5), `${good}x`]) {
      expect(await verifyPassword('pw-pw-pw-pw', h)).toBe(false);
    }
    expect(await verifyPassword(undefined as never, good)).toBe(false);
    expect(await verifyPassword('pw', null as never)).toBe(false);
  });

  it('refuses empty and oversized passwords', async () => {
    await expect(hashPassword('')).rejects.toThrow(TypeError);
    await expect(hashPassword('x'.repeat(1025))).rejects.toThrow(/at most 1024 bytes/);
  });
});

describe('generateToken', () => {
  it('returns 32 random bytes as 64 hex characters by default', async () => {
    const t = await generateToken();
    expect(t).toMatch(/^[0-9a-f]{64}$/);
    expect(await generateToken()).not.toBe(t);
  });

  it('returns 2×length hex characters for any valid length', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 512 }), async (n) => {
        expect(await generateToken(n)).toMatch(new RegExp(`^[0-9a-f]{${2 * n}}$`));
      }),
    );
  });

  it('rejects non-positive and non-integer lengths', async () => {
    for (const bad of [0, -1, 1.5, Number.NaN, Infinity, '8', 70000]) {
      await expect(generateToken(bad as never)).rejects.toThrow(RangeError);
    }
  });
});

describe('errors', () => {
  it('carry the documented codes and statuses (core/src/error-codes.ts) and share one base class', () => {
    const cases: [AuthError, string, number][] = [
      [new UnauthenticatedError(), 'UNAUTHENTICATED', 401],
      [new ForbiddenError('no', { requiredRole: 'admin' }), 'FORBIDDEN', 403],
      [new InvalidCredentialsError(), 'INVALID_CREDENTIALS', 401],
      [new SessionExpiredError(), 'SESSION_EXPIRED', 401],
    ];
    for (const [e, code, status] of cases) {
      expect(e).toBeInstanceOf(AuthError);
      expect(e).toBeInstanceOf(Error);
      expect(e.code).toBe(code);
      expect(e.status).toBe(status);
      expect(e.toJSON()).toEqual({ error: { code, message: e.message } });
    }
    expect(new ForbiddenError('no', { requiredRole: 'admin' }).requiredRole).toBe('admin');
    expect(new ForbiddenError('no', { requiredPermission: 'posts:write' }).requiredPermission).toBe('posts:write');
  });
});
