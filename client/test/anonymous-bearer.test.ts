/**
 * `@framework/auth-client/plugins/anonymous` and `/plugins/bearer` against the real engine: a guest signs in with
 * `signIn.anonymous()` and is linked on sign-up; a cookie-less app signs in through `bearerFetch`, reads its
 * session, and signs out (the stored token is cleared and refused after).
 */
import { describe, expect, it } from 'vitest';
import { anonymous } from '@framework/auth/plugins/anonymous';
import { bearer } from '@framework/auth/plugins/bearer';
import { authRequest, signUp } from '../src/index.js';
import { signIn } from '../src/plugins/anonymous.js';
import { bearerFetch, getBearerSession, memoryTokenStore, signOutBearer } from '../src/plugins/bearer.js';
import { engine } from './engine-fetch.js';

const SECRET = 'client-anonymous-bearer-test-secret-0123456789';

describe('anonymous client', () => {
  it('signs in as a guest, and a sign-up links and deletes the guest', async () => {
    const links: string[] = [];
    const { browser, adapter } = await engine({
      secret: SECRET,
      emailAndPassword: {},
      plugins: [anonymous({ onLinkAccount: ({ anonymousUser }) => void links.push(anonymousUser.id) })],
    });
    const b = browser();
    expect(await signIn.anonymous({ callbackUrl: '/shop' }, { fetch: b.fetch })).toMatchObject({
      ok: true,
      data: { url: '/shop' },
    });
    const guest = (await b.client.getSession())!.user.id;
    expect(await signIn.anonymous({}, { fetch: b.fetch })).toMatchObject({
      ok: false,
      status: 400,
      error: 'ANONYMOUS_ALREADY_SIGNED_IN',
    });
    expect(
      await signUp({ email: 'grace@example.com', password: 'analytical-engine' }, { fetch: b.fetch }),
    ).toMatchObject({ ok: true });
    expect((await b.client.getSession())?.user.email).toBe('grace@example.com');
    expect(links).toStrictEqual([guest]);
    expect(await adapter.getUser(guest)).toBeNull();
  });
});

describe('bearer client', () => {
  it('signs in without cookies, reads the session, and signs out', async () => {
    const { auth, ada } = await engine({ secret: SECRET, plugins: [bearer()] });
    const sent: Headers[] = [];
    const store = memoryTokenStore();
    const options = {
      fetch: bearerFetch({
        store,
        fetch: async (input, init) => {
          sent.push(new Headers(init?.headers));
          return auth.handler(new Request(new URL(String(input), 'http://app.test'), init));
        },
      }),
    };
    const signedIn = await authRequest('/callback/credentials', options, {
      email: 'ada@example.com',
      password: 'analytical-engine',
    });
    expect(signedIn.ok).toBe(true);
    const token = await store.get();
    expect(token).toMatch(/\./);
    expect(sent.every((h) => !h.has('cookie'))).toBe(true);
    expect(sent.at(-1)!.get('x-auth-mode')).toBe('bearer');
    const session = await getBearerSession(options);
    expect(session).toMatchObject({ ok: true, data: { user: { id: ada.id } } });
    expect(sent.at(-1)!.get('authorization')).toBe(`Bearer ${token}`);
    expect(await signOutBearer(options)).toMatchObject({ ok: true });
    expect(await store.get()).toBeNull();
    const refused = await auth.handler(
      new Request('http://app.test/auth/bearer/session', { headers: { authorization: `Bearer ${token}` } }),
    );
    expect(refused.status).toBe(401);
    expect(await getBearerSession(options)).toMatchObject({ ok: false, status: 401, error: 'BEARER_INVALID' });
  });
});
