import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defineAuthConfig } from '../convention.js';
import { AuthConfigError } from '../errors.js';
import { makeFixture, ORIGIN } from '../testing/fixtures.js';

const secureFixture = (options: Record<string, unknown>, name?: string) =>
  makeFixture('database', {
    cookies: { sessionToken: { ...(name ? { name } : {}), options: { secure: true, ...options } } },
  });

/** The Set-Cookie line of the session cookie after a sign-in. */
async function signInCookie(fixture: Awaited<ReturnType<typeof makeFixture>>): Promise<string> {
  const c = fixture.client();
  const res = await c.signIn();
  const line = res.headers.getSetCookie().find((l) => l.includes('session-token=') || l.startsWith('sid='));
  expect(line).toBeDefined();
  return line!;
}

const read = (fixture: Awaited<ReturnType<typeof makeFixture>>, cookie: string) =>
  fixture.auth.getSession(new Request(`${ORIGIN}/`, { headers: { cookie } }));

describe('session cookie prefixes (RFC 6265bis §4.1.3)', () => {
  it('a secure session cookie is __Host-: Secure, Path=/, no Domain; only that name is read', async () => {
    const fixture = await secureFixture({});
    const line = await signInCookie(fixture);
    expect(line).toMatch(/^__Host-framework\.session-token=/);
    expect(line).toMatch(/; Secure/);
    expect(line).toMatch(/; Path=\//);
    expect(line).not.toMatch(/Domain=/i);
    const value = line.split(';')[0]!.split('=')[1]!;
    expect((await read(fixture, `__Host-framework.session-token=${value}`)).user?.email).toBe('ada@example.com');
    // A cookie without the prefix could have been planted by a sibling subdomain or over HTTP: ignored.
    expect((await read(fixture, `framework.session-token=${value}`)).user).toBeNull();
  });

  it('with a domain, __Host- cannot apply: the cookie is __Secure- and carries the Domain', async () => {
    const fixture = await secureFixture({ domain: 'app.test' });
    const line = await signInCookie(fixture);
    expect(line).toMatch(/^__Secure-framework\.session-token=/);
    expect(line).toMatch(/Domain=app\.test/i);
    expect(line).toMatch(/; Secure/);
    const value = line.split(';')[0]!.split('=')[1]!;
    expect((await read(fixture, `__Secure-framework.session-token=${value}`)).user?.email).toBe('ada@example.com');
  });

  it('over plain HTTP the name has no prefix', async () => {
    const line = await signInCookie(await makeFixture('database'));
    expect(line).toMatch(/^framework\.session-token=/);
    expect(line).not.toMatch(/; Secure/);
  });

  it('a name the app set is kept as it is, and read back', async () => {
    const fixture = await secureFixture({}, 'sid');
    const line = await signInCookie(fixture);
    expect(line).toMatch(/^sid=/);
    expect((await read(fixture, line.split(';')[0]!)).user?.email).toBe('ada@example.com');
  });

  it.each([
    [{ name: '__Host-sid', options: { secure: true, domain: 'example.com' } }, /__Host- prefix/],
    [{ name: '__host-sid', options: { secure: true, path: '/app' } }, /__Host- prefix/],
    [{ name: '__Host-sid', options: { secure: false } }, /__Host- prefix/],
    [{ name: '__SECURE-sid', options: { secure: false } }, /__Secure- prefix/],
  ])('rejects a prefixed name without the attributes its prefix needs: %j', (sessionToken, message) => {
    expect(() => defineAuthConfig({ cookies: { sessionToken } })).toThrow(AuthConfigError);
    expect(() => defineAuthConfig({ cookies: { sessionToken } })).toThrow(message);
  });

  it('every accepted config gives a name whose prefix the browser will honour (property)', () => {
    const name = fc.option(
      fc.constantFrom('sid', '__Host-sid', '__host-x', '__Secure-sid', '__secure-y', 'framework.session-token'),
      { nil: undefined },
    );
    const options = fc.record(
      { secure: fc.boolean(), path: fc.constantFrom('/', '/app'), domain: fc.constantFrom('example.com', 'app.test') },
      { requiredKeys: ['secure'] },
    );
    fc.assert(
      fc.property(name, options, (configured, o) => {
        let resolved;
        try {
          resolved = defineAuthConfig({
            cookies: { sessionToken: { ...(configured ? { name: configured } : {}), options: o } },
          });
        } catch (error) {
          expect(error).toBeInstanceOf(AuthConfigError);
          expect(configured?.startsWith('__')).toBe(true);
          return;
        }
        const { name: out, options: attrs } = resolved.cookies!.sessionToken!;
        const lower = out!.toLowerCase();
        if (lower.startsWith('__host-'))
          expect([attrs!.secure, attrs!.path, attrs!.domain]).toStrictEqual([true, '/', undefined]);
        if (lower.startsWith('__secure-')) expect(attrs!.secure).toBe(true);
        if (configured) expect(out).toBe(configured);
        else
          expect(out).toBe(
            `${attrs!.secure ? (attrs!.path === '/' && attrs!.domain === undefined ? '__Host-' : '__Secure-') : ''}framework.session-token`,
          );
      }),
      { numRuns: 300 },
    );
  });
});
