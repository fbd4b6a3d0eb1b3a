/** mergeClaims: UserInfo claims over ID token claims (OIDC Core §5.3.2, §5.4). */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import * as oauth from 'oauth4webapi';
import { mergeClaims } from './userinfo.js';

const idToken = { iss: 'https://op.test', aud: 'kit', sub: 'alice', nonce: 'n-1', exp: 2, iat: 1 };

describe('mergeClaims', () => {
  it('adds the UserInfo claims to the ID token claims', () => {
    expect(mergeClaims(idToken, { sub: 'alice', email: 'a@example.com', email_verified: true, name: 'Alice' })).toEqual(
      {
        ...idToken,
        email: 'a@example.com',
        email_verified: true,
        name: 'Alice',
      },
    );
  });

  it('lets UserInfo win for End-User claims', () => {
    expect(mergeClaims({ ...idToken, name: 'Old', picture: 'p1' }, { sub: 'alice', name: 'New' })).toMatchObject({
      name: 'New',
      picture: 'p1',
    });
  });

  it('keeps the ID token authentication claims whatever UserInfo says', () => {
    const merged = mergeClaims(idToken, {
      sub: 'alice',
      iss: 'https://evil.test',
      aud: 'other',
      nonce: 'x',
      exp: 999,
      acr: 'weak',
      amr: ['none'],
    });
    expect(merged).toMatchObject({ iss: 'https://op.test', aud: 'kit', nonce: 'n-1', exp: 2 });
    expect(merged).not.toHaveProperty('acr');
    expect(merged).not.toHaveProperty('amr');
  });

  it('drops an ID token email_verified when UserInfo gives another email without its own flag', () => {
    const merged = mergeClaims(
      { ...idToken, email: 'a@example.com', email_verified: true },
      { sub: 'alice', email: 'b@example.com' },
    );
    expect(merged.email).toBe('b@example.com');
    expect(merged).not.toHaveProperty('email_verified');
    const phone = mergeClaims(
      { ...idToken, phone_number: '+1 1', phone_number_verified: true },
      { sub: 'alice', phone_number: '+1 2' },
    );
    expect(phone).not.toHaveProperty('phone_number_verified');
  });

  it('keeps the flag when UserInfo repeats the same email, and takes UserInfo’s own flag', () => {
    expect(
      mergeClaims(
        { ...idToken, email: 'a@example.com', email_verified: true },
        { sub: 'alice', email: 'a@example.com' },
      ).email_verified,
    ).toBe(true);
    expect(
      mergeClaims(
        { ...idToken, email: 'a@example.com', email_verified: true },
        { sub: 'alice', email: 'a@example.com', email_verified: false },
      ).email_verified,
    ).toBe(false);
  });

  it('keeps a "__proto__" claim a plain claim', () => {
    const merged = mergeClaims(
      idToken,
      JSON.parse('{"sub":"alice","__proto__":{"polluted":true}}') as Record<string, unknown>,
    );
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
    expect((merged as { polluted?: unknown }).polluted).toBeUndefined();
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('email_verified in the result always belongs to the email beside it (property)', () => {
    const email = fc.constantFrom('a@example.com', 'b@example.com');
    const side = fc.record({ email, email_verified: fc.boolean() }, { requiredKeys: [] });
    fc.assert(
      fc.property(side, side, (id, ui) => {
        const merged = mergeClaims({ ...idToken, ...id }, { sub: 'alice', ...ui });
        if (!('email_verified' in merged)) return;
        const source = 'email_verified' in ui ? ui : id;
        expect(merged.email_verified).toBe(source.email_verified);
        expect(merged.email).toBe(source === ui ? (ui.email ?? id.email) : id.email);
      }),
    );
  });
});

describe('fetchUserInfo errors', () => {
  it('keeps a provider-sent error code to RFC 6749 characters in the message', async () => {
    const { fetchUserInfo } = await import('./userinfo.js');
    const as = { issuer: 'https://op.test', userinfo_endpoint: 'https://op.test/me?secret=1' };
    const hostile = (async () =>
      new Response(null, {
        status: 401,
        headers: { 'www-authenticate': 'Bearer error="invalid_token\\r\\n[auth] forged line"' },
      })) as typeof fetch;
    const uc = {
      providerName: 'OP',
      client: { client_id: 'kit' },
      http: customFetch(hostile),
      verifySignature: async () => {},
    };
    const error = await fetchUserInfo(uc, as, { access_token: 'at-secret' }, { sub: 'alice' }).catch(
      (e: unknown) => e as Error & { code: string },
    );
    expect(error.code).toBe('OAUTH_USERINFO_FAILED');
    expect(error.message).toContain('https://op.test/me');
    expect(error.message).not.toContain('secret=1');
    expect(error.message).not.toContain('at-secret');
    expect(error.message).not.toMatch(/[\r\n]/);
    // The provider's error code is cut to RFC 6749 §5.2 characters: no spaces, quotes or backslashes to fake
    // a log line with.
    expect(error.message).toMatch(/failed: HTTP 401 invalid_token[!#-[\]-~]*$/);
  });
});

function customFetch(f: typeof fetch) {
  return { [oauth.customFetch]: f } as Record<symbol, unknown>;
}
