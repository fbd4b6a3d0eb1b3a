import { describe, expect, it } from 'vitest';
import { withoutCookie } from '../plugin-kit.js';

describe('withoutCookie (plugin kit)', () => {
  it('drops every cookies entry and Set-Cookie line of one cookie, keeping the others in order', () => {
    const setCookies = new Headers();
    setCookies.append('set-cookie', 'a=1; Path=/');
    setCookies.append('set-cookie', 'session=x; Path=/');
    setCookies.append('set-cookie', 'session-other=y; Path=/');
    const result = {
      status: 200,
      cookies: [
        { name: 'session', value: 'v', options: {} },
        { name: 'b', value: '2', options: {} },
      ],
      setCookies,
    };
    const out = withoutCookie(result as never, 'session');
    expect(out.cookies?.map((c) => c.name)).toEqual(['b']);
    expect(out.setCookies?.getSetCookie()).toEqual(['a=1; Path=/', 'session-other=y; Path=/']);
    // The original answer is left as it was.
    expect(result.setCookies.getSetCookie()).toHaveLength(3);
    expect(result.cookies).toHaveLength(2);
  });
});
