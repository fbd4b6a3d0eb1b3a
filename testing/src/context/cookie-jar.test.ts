import { describe, expect, it } from 'vitest';
import { createCookieJar } from './cookie-jar.js';

describe('createCookieJar', () => {
  it('stores Set-Cookie lines and answers by path', () => {
    const jar = createCookieJar();
    jar.store(['a=1; Path=/; HttpOnly', 'b=2; Path=/auth', 'c=3']);
    expect(jar.header('/')).toBe('a=1; c=3');
    expect(jar.header('/auth/session')).toBe('a=1; b=2; c=3');
    expect(jar.header('/authors')).toBe('a=1; c=3');
  });

  it('deletes cookies cleared by Max-Age=0 or a past Expires, and replaces by name', () => {
    const jar = createCookieJar();
    jar.store(['a=1', 'b=2', 'c=3']);
    jar.store(['a=; Max-Age=0', 'b=; Expires=Thu, 01 Jan 1970 00:00:00 GMT', 'c=4']);
    expect(jar.header('/')).toBe('c=4');
    expect(jar.get('a')).toBeUndefined();
    jar.set('d', '5');
    expect(jar.get('d')).toBe('5');
    jar.clear();
    expect(jar.header('/')).toBe('');
  });
});
