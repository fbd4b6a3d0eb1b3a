/**
 * Every sign-in method ends in one `completeSignIn`: for each of them, a
 * `signIn` callback returning false issues no session and stores nothing,
 * one returning a URL sends the browser there without a session, and one
 * returning true signs in (with a rotated session).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignInParams } from '../callbacks.js';
import { credentials } from '../providers/credentials.js';
import { email, type EmailParams } from '../providers/email.js';
import { createOAuth2Provider } from '../providers/oauth/create.js';
import { Browser, makeAuth, startProvider } from '../providers/oauth/oauth-harness.js';
import { passkey } from '../plugins/passkey/provider.js';
import { passwordAccounts } from '../password-accounts.js';
import { SoftAuthenticator } from '@framework/testing/webauthn';
import { createMemoryAdapter } from '../storage/memory.js';

const APP = 'http://app.test';
type Verdict = boolean | string;
type Json = Record<string, unknown>;

let idp: Awaited<ReturnType<typeof startProvider>>;
beforeAll(async () => {
  idp = await startProvider();
});
afterAll(() => idp.stop());

async function world() {
  let verdict: Verdict = true;
  const seen: SignInParams[] = [];
  const sent: EmailParams[] = [];
  const created: string[] = [];
  const store = createMemoryAdapter();
  const createUser = store.createUser.bind(store);
  store.createUser = async (input) => {
    const user = await createUser(input);
    created.push(user.id);
    return user;
  };
  const { auth, adapter } = makeAuth({
    adapter: store,
    providers: [
      credentials({
        credentials: { email: { label: 'E', type: 'email' }, password: { label: 'P', type: 'password' } },
        authorize: (c) => passwords.authorize(c),
      }),
      email({ from: 'login@app.test', sendVerificationRequest: async (p) => void sent.push(p) }),
      createOAuth2Provider({
        id: 'idp',
        name: 'IdP',
        issuer: idp.issuer,
        clientId: 'kit',
        clientSecret: 'kit-secret',
        profile: (c) => ({ id: String(c.sub), email: (c.email as string) ?? null }),
      }),
      passkey({ rpName: 'Test', rpId: 'app.test', origin: APP, allowSignUp: true }),
    ],
    emailAndPassword: {},
    callbacks: {
      signIn: (params) => {
        seen.push(params);
        return verdict;
      },
    },
  });
  const passwords = passwordAccounts(adapter);
  await passwords.register({ email: 'ada@example.com', password: 'analytical-engine', name: 'Ada' });
  const authenticator = new SoftAuthenticator();
  return {
    auth,
    adapter,
    created,
    sent,
    seen,
    authenticator,
    set(v: Verdict) {
      verdict = v;
    },
  };
}
type World = Awaited<ReturnType<typeof world>>;

async function postJson(b: Browser, path: string, body: Json): Promise<Response> {
  const csrfToken = await b.csrf();
  return b.app(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ csrfToken, callbackUrl: '/home', ...body }),
  });
}

/** Each method: prepares what it needs while sign-in is allowed, then returns the attempt under test. */
const METHODS: Record<string, (w: World, b: Browser) => Promise<(b: Browser) => Promise<Response>>> = {
  credentials: async () => (b) =>
    postJson(b, '/auth/callback/credentials', { email: 'ada@example.com', password: 'analytical-engine' }),
  'magic link': async (w) => {
    const b0 = new Browser(w.auth);
    w.set(true);
    await postJson(b0, '/auth/signin/email', { email: 'linked@example.com' });
    const link = new URL(w.sent.at(-1)!.url);
    return (b) =>
      postJson(b, '/auth/callback/email', { token: link.searchParams.get('token')!, email: 'linked@example.com' });
  },
  'OAuth (OIDC)': async () => async (b) => {
    const back = await b.authorize(await b.start('idp', '/home'));
    return b.app(back.href, { headers: { accept: 'application/json' } });
  },
  'email + password sign-up': async () => (b) =>
    postJson(b, '/auth/signup', { email: `new-${Math.random()}@example.com`, password: 'a long password' }),
  'passkey sign-up': async (w) => async (b) => {
    const options = (await (
      await postJson(b, '/auth/passkey/register/options', { email: `new-${Math.random()}@example.com` })
    ).json()) as never;
    return postJson(b, '/auth/passkey/register/verify', {
      response: JSON.stringify(w.authenticator.register(options, APP)),
    });
  },
  'passkey sign-in': async (w) => {
    // Register a passkey for Ada while signed in (allowed), then sign in with it.
    const owner = new Browser(w.auth);
    w.set(true);
    await postJson(owner, '/auth/callback/credentials', { email: 'ada@example.com', password: 'analytical-engine' });
    const key = new SoftAuthenticator();
    const regOptions = (await (await postJson(owner, '/auth/passkey/register/options', {})).json()) as never;
    expect(
      (
        await postJson(owner, '/auth/passkey/register/verify', {
          response: JSON.stringify(key.register(regOptions, APP)),
        })
      ).status,
    ).toBe(200);
    return async (b) => {
      const options = (await (await postJson(b, '/auth/passkey/authenticate/options', {})).json()) as never;
      return postJson(b, '/auth/passkey/authenticate/verify', {
        response: JSON.stringify(key.authenticate(options, APP)),
      });
    };
  },
};

describe.each(Object.keys(METHODS))('sign-in by %s', (method) => {
  it('signIn → false: no session, nothing stored, ACCESS_DENIED', async () => {
    const w = await world();
    const attempt = await METHODS[method]!(w, new Browser(w.auth));
    const users = w.created.length;
    w.set(false);
    const b = new Browser(w.auth);
    const res = await attempt(b);
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ error: { code: 'ACCESS_DENIED' } });
    expect(await b.session()).toBeNull();
    expect(w.created.length).toBe(users);
    expect(w.seen.length).toBeGreaterThan(0);
  });

  it('signIn → URL: the browser is sent there, without a session', async () => {
    const w = await world();
    const attempt = await METHODS[method]!(w, new Browser(w.auth));
    w.set('/closed-registration');
    const b = new Browser(w.auth);
    const res = await attempt(b);
    expect(await res.json()).toMatchObject({ error: { code: 'ACCESS_DENIED' }, url: '/closed-registration' });
    expect(await b.session()).toBeNull();
  });

  it('signIn → true: a session, rotating the one the browser had', async () => {
    const w = await world();
    const attempt = await METHODS[method]!(w, new Browser(w.auth));
    w.set(true);
    const b = new Browser(w.auth);
    b.cookies.set('framework.session-token', 'stale.value');
    const res = await attempt(b);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ ok: true });
    expect(b.cookies.get('framework.session-token')).not.toBe('stale.value');
    expect(await b.session()).not.toBeNull();
  });
});
