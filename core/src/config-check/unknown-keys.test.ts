import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createAuth } from '../auth.js';
import { AuthConfigError } from '../errors.js';
import { CREATE_AUTH_KEYS } from './create-auth-keys.js';
import { editDistance, nearestKey } from './unknown-keys.js';

const base = { secret: 's'.repeat(40), session: { strategy: 'jwt' as const }, providers: [] };

describe('createAuth refuses unknown options', () => {
  it('names a typo and the option it probably meant', () => {
    expect(() => createAuth({ ...base, sesion: { maxAge: 60 } } as never)).toThrow(
      'Invalid auth config: unknown option "sesion" — did you mean "session"?',
    );
    expect(() => createAuth({ ...base, callback: {} } as never)).toThrow('did you mean "callbacks"?');
    expect(() => createAuth({ ...base, baseUrl: 'https://a.example' } as never)).toThrow('did you mean "baseURL"?');
  });

  it('lists the known options when nothing is close, with code INVALID_CONFIG', () => {
    let error: unknown;
    try {
      createAuth({ ...base, database: 'sqlite' } as never);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AuthConfigError);
    expect(error).toMatchObject({ code: 'INVALID_CONFIG' });
    expect((error as Error).message).toContain('unknown option "database" (known options: basePath, session');
  });

  it('accepts every documented option key', () => {
    expect(CREATE_AUTH_KEYS.has('emailAndPassword')).toBe(true);
    expect(() => createAuth({ ...base, basePath: '/auth', maxBodySize: 1024 })).not.toThrow();
  });
});

describe('editDistance', () => {
  it('is a metric: zero only for equal strings, symmetric, and bounded by the longer length', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), fc.string({ maxLength: 12 }), (a, b) => {
        const d = editDistance(a, b);
        expect(d === 0).toBe(a === b);
        expect(editDistance(b, a)).toBe(d);
        expect(d).toBeLessThanOrEqual(Math.max(a.length, b.length));
        expect(d).toBeGreaterThanOrEqual(Math.abs(a.length - b.length));
      }),
    );
  });

  it('suggests only near keys', () => {
    expect(nearestKey('secert', CREATE_AUTH_KEYS)).toBe('secret');
    expect(nearestKey('x', CREATE_AUTH_KEYS)).toBeUndefined();
  });
});
