/**
 * `@framework/auth-client/plugins/last-login-method` against the real engine with `lastLoginMethod()`: the cookie a
 * sign-in sets is read back, and forged values are ignored.
 */
import { describe, expect, it } from 'vitest';
import { lastLoginMethod } from '@framework/auth/plugins/last-login-method';
import { getLastUsedLoginMethod } from '../src/plugins/last-login-method.js';
import { engine } from './engine-fetch.js';

const SECRET = 'client-last-login-test-secret-0123456789abcdef';

describe('getLastUsedLoginMethod', () => {
  it('reads the method the last sign-in set', async () => {
    const { browser } = await engine({ secret: SECRET, plugins: [lastLoginMethod()], rateLimit: { login: false } });
    const laptop = browser();
    expect(getLastUsedLoginMethod([...laptop.jar].map(([k, v]) => `${k}=${v}`).join('; '))).toBeNull();
    const credentials = { email: 'ada@example.com', password: 'analytical-engine', redirect: false } as const;
    expect((await laptop.client.signIn('credentials', credentials)).ok).toBe(true);
    const cookie = [...laptop.jar].map(([k, v]) => `${k}=${v}`).join('; ');
    expect(getLastUsedLoginMethod(cookie)).toBe('credentials');
  });

  it('decodes oauth:<id> and ignores forged or malformed values', () => {
    expect(getLastUsedLoginMethod('a=b; framework.last-login-method=oauth%3Agithub')).toBe('oauth:github');
    for (const forged of ['%3Cscript%3E', 'oauth%3A%22%3E', '%E0%A4%A', 'admin', ''])
      expect(getLastUsedLoginMethod(`framework.last-login-method=${forged}`)).toBeNull();
    expect(getLastUsedLoginMethod()).toBeNull();
  });
});
