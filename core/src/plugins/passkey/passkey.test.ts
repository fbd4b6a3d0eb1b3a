import { describe, expect, it } from 'vitest';
import { createAuth, type CreateAuthOptions } from '../../auth.js';
import { passkey } from './provider.js';
import { credentials } from '../../providers/credentials.js';
import { passwordAccounts } from '../../password-accounts.js';
import { createMemoryAdapter } from '../../storage/memory.js';
import { SoftAuthenticator } from '@framework/testing/webauthn';
import { ORIGIN, TestClient } from '../../testing/fixtures.js';

async function setup(overrides: Partial<CreateAuthOptions> = {}, allowSignUp = false) {
  const adapter = createMemoryAdapter();
  const passwords = passwordAccounts(adapter);
  const user = await passwords.register({ email: 'ada@example.com', password: 'analytical-engine', name: 'Ada' });
  const auth = createAuth({
    secret: 'passkey-test-secret-passkey-test-secret-01',
    adapter,
    providers: [
      credentials({
        credentials: { email: { label: 'E', type: 'email' }, password: { label: 'P', type: 'password' } },
        authorize: passwords.authorize,
      }),
      passkey({ rpName: 'Test', rpId: 'app.test', origin: ORIGIN, allowSignUp }),
    ],
    logger: { error: () => {}, warn: () => {} },
    ...overrides,
  });
  return { auth, adapter, user, client: () => new TestClient(auth) };
}

type Json = Record<string, unknown>;
async function options(c: TestClient, kind: 'register' | 'authenticate', body: Json = {}) {
  const res = await c.postJson(`/auth/passkey/${kind}/options`, body);
  return {
    res,
    json: (await res.json()) as Json & { challenge: string; rp: { id: string }; user: { id: string }; rpId: string },
  };
}
async function verify(c: TestClient, kind: 'register' | 'authenticate', response: unknown, body: Json = {}) {
  return c.postJson(`/auth/passkey/${kind}/verify`, { response: JSON.stringify(response), ...body });
}

async function registered() {
  const env = await setup();
  const c = env.client();
  await c.signIn();
  const authenticator = new SoftAuthenticator();
  const { json } = await options(c, 'register');
  const res = await verify(c, 'register', authenticator.register(json, ORIGIN), { name: 'Laptop' });
  expect(res.status).toBe(200);
  return { ...env, c, authenticator };
}

describe('passkeys', () => {
  it('registers a passkey for the signed-in user, stored with its name, counter and a webauthn account', async () => {
    const { adapter, user, authenticator, c } = await registered();
    const [stored] = await adapter.listAuthenticators(user.id);
    expect(stored).toMatchObject({
      credentialId: authenticator.id,
      userId: user.id,
      counter: 0,
      name: 'Laptop',
      transports: ['internal'],
    });
    expect(await adapter.getAccount({ provider: 'passkey', providerAccountId: authenticator.id })).toMatchObject({
      type: 'webauthn',
      userId: user.id,
    });
    const list = (await (
      await c.request('/auth/passkey/credentials', { headers: { accept: 'application/json' } })
    ).json()) as Json[];
    expect(list).toMatchObject([{ id: authenticator.id, name: 'Laptop' }]);
    expect(typeof list[0]!.createdAt).toBe('string');
  });

  it('signs in with the passkey alone (discoverable credential) and advances the counter', async () => {
    const { client, authenticator, adapter, user } = await registered();
    const fresh = client();
    const { json } = await options(fresh, 'authenticate');
    expect(json.allowCredentials).toEqual([]);
    const res = await verify(fresh, 'authenticate', authenticator.authenticate(json, ORIGIN), { callbackUrl: '/dash' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, url: '/dash' });
    expect((await fresh.session())?.user.id).toBe(user.id);
    expect((await adapter.getAuthenticator(authenticator.id))?.counter).toBe(1);
  });

  it('refuses a replayed challenge, a wrong origin, a wrong rpId and a counter that goes back', async () => {
    const { client, authenticator } = await registered();
    // Replay: the same assertion and challenge cookie twice.
    const c = client();
    const { json } = await options(c, 'authenticate');
    const answer = authenticator.authenticate(json, ORIGIN);
    const cookieJar = new Map(c.cookies);
    expect((await verify(c, 'authenticate', answer)).status).toBe(200);
    const replay = client();
    for (const [k, v] of cookieJar) replay.cookies.set(k, v);
    const replayed = await verify(replay, 'authenticate', answer);
    expect(replayed.status).toBe(400);
    expect(((await replayed.json()) as { error: { code: string } }).error.code).toBe('PASSKEY_VERIFICATION_FAILED');

    for (const [origin, rpId] of [
      ['https://evil.test', 'app.test'],
      [ORIGIN, 'evil.test'],
    ] as const) {
      const d = client();
      const o = await options(d, 'authenticate');
      const res = await verify(d, 'authenticate', authenticator.authenticate(o.json, origin, rpId));
      expect(res.status, `${origin} ${rpId}`).toBe(400);
    }

    const e = client();
    const o = await options(e, 'authenticate');
    authenticator.counter = 0; // a cloned authenticator would go back in time
    const cloned = await verify(e, 'authenticate', authenticator.authenticate(o.json, ORIGIN));
    expect(cloned.status).toBe(400);
    expect(await e.session()).toBeNull();
  });

  it('refuses an unknown credential and a verify without the challenge cookie', async () => {
    const { client } = await registered();
    const stranger = new SoftAuthenticator();
    const c = client();
    const { json } = await options(c, 'authenticate');
    expect((await verify(c, 'authenticate', stranger.authenticate(json, ORIGIN))).status).toBe(400);
    const noCookie = client();
    expect((await verify(noCookie, 'authenticate', stranger.authenticate(json, ORIGIN))).status).toBe(400);
  });

  it('keeps several passkeys per user, and deletes only your own', async () => {
    const { c, adapter, user, client } = await registered();
    const second = new SoftAuthenticator();
    const { json } = await options(c, 'register');
    expect((json.excludeCredentials as unknown[]).length).toBe(1);
    expect((await verify(c, 'register', second.register(json, ORIGIN), { name: 'Phone' })).status).toBe(200);
    expect((await adapter.listAuthenticators(user.id)).map((a) => a.name).sort()).toEqual(['Laptop', 'Phone']);

    const other = client();
    await (
      await import('../../password-accounts.js')
    )
      .passwordAccounts(adapter)
      .register({ email: 'eve@example.com', password: 'eve-password' });
    await other.signIn('eve@example.com', 'eve-password');
    expect((await other.postJson('/auth/passkey/delete', { credentialId: second.id })).status).toBe(404);
    expect((await c.postJson('/auth/passkey/delete', { credentialId: second.id })).status).toBe(200);
    expect((await adapter.listAuthenticators(user.id)).map((a) => a.name)).toEqual(['Laptop']);
    expect(await adapter.getAccount({ provider: 'passkey', providerAccountId: second.id })).toBeNull();
  });

  it('needs a session to register unless sign-up is enabled', async () => {
    const { client } = await setup();
    const res = await client().postJson('/auth/passkey/register/options', {});
    expect(res.status).toBe(401);
    const open = await setup({}, true);
    const c = open.client();
    const { json } = await options(c, 'register', { email: 'new@example.com', name: 'Newcomer' });
    const a = new SoftAuthenticator();
    const done = await verify(c, 'register', a.register(json, ORIGIN));
    expect(done.status).toBe(200);
    expect((await c.session())?.user).toMatchObject({ email: 'new@example.com', name: 'Newcomer' });
    expect((await options(open.client(), 'register', { email: 'ada@example.com' })).res.status).toBe(409);
  });

  it('serves the browser bundle and renders the passkey button and management page', async () => {
    const { auth, c } = await registered();
    const js = await auth.handler(new Request(`${ORIGIN}/auth/passkey/browser.js`));
    expect(js.headers.get('content-type')).toMatch(/javascript/);
    expect(await js.text()).toContain('SimpleWebAuthnBrowser');
    const signin = await (await auth.handler(new Request(`${ORIGIN}/auth/signin`))).text();
    expect(signin).toContain('data-passkey="authenticate"');
    const page = await (await c.request('/auth/passkey')).text();
    expect(page).toContain('<strong>Laptop</strong>');
    expect(page).toContain('data-passkey="register"');
    const anon = await auth.handler(new Request(`${ORIGIN}/auth/passkey`));
    expect(anon.status).toBe(302);
  });

  it('rejects config whose origin is not on the rpId', () => {
    expect(() => passkey({ rpName: 'x', rpId: 'example.com', origin: 'https://evil.test' })).toThrow(/not on rpId/);
  });
});
