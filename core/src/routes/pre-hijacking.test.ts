/**
 * Account pre-hijacking: an attacker registers the victim's email first
 * (password, passkey), the victim later proves the email by magic link or
 * by a trusted OAuth provider; the attacker's credentials and sessions must
 * be gone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentials } from '../providers/credentials.js';
import { email, type EmailParams } from '../providers/email.js';
import { createOAuth2Provider } from '../providers/oauth/create.js';
import { Browser, makeAuth, patchNextIdToken, startProvider } from '../providers/oauth/oauth-harness.js';
import { passkey } from '../plugins/passkey/provider.js';
import { passwordAccounts } from '../password-accounts.js';
import { SoftAuthenticator } from '@framework/testing/webauthn';
import type { StorageAdapter } from '../storage/types.js';

const APP = 'http://app.test';
const VICTIM = 'victim@example.com';
const ATTACKER_PASSWORD = 'attacker-chose-this';

let idp: Awaited<ReturnType<typeof startProvider>>;
beforeAll(async () => {
  idp = await startProvider();
});
afterAll(() => idp.stop());

async function setup(session?: { strategy: 'jwt'; revalidateAge?: number }, shared?: { adapter: StorageAdapter }) {
  const sent: EmailParams[] = [];
  const warnings: string[] = [];
  const { auth, adapter } = makeAuth({
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
        trustEmail: true,
        profile: (c) => ({
          id: String(c.sub),
          email: (c.email as string) ?? null,
          emailVerified: c.email_verified === true ? new Date() : null,
        }),
      }),
      createOAuth2Provider({
        id: 'rogue',
        name: 'Rogue IdP',
        issuer: idp.issuer,
        clientId: 'kit',
        clientSecret: 'kit-secret',
        profile: (c) => ({
          id: `rogue-${String(c.sub)}`,
          email: (c.email as string) ?? null,
          emailVerified: c.email_verified === true ? new Date() : null,
        }),
      }),
      passkey({ rpName: 'Test', rpId: 'app.test', origin: APP }),
    ],
    logger: { error: () => {}, warn: (m) => void warnings.push(m) },
    ...(session ? { session } : {}),
    ...(shared ? { adapter: shared.adapter } : {}),
  });
  const passwords = passwordAccounts(adapter);
  return { auth, adapter, passwords, sent, warnings };
}
type Env = Awaited<ReturnType<typeof setup>>;

async function post(b: Browser, path: string, body: Record<string, string>): Promise<Response> {
  const csrfToken = await b.csrf();
  return b.app(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ csrfToken, ...body }),
  });
}

/** The attacker pre-registers the victim's email with a password and a passkey, and keeps a session. */
async function preHijack(env: Env) {
  const user = await env.passwords.register({ email: VICTIM, password: ATTACKER_PASSWORD });
  const attacker = new Browser(env.auth);
  expect(
    (await post(attacker, '/auth/callback/credentials', { email: VICTIM, password: ATTACKER_PASSWORD })).status,
  ).toBe(200);
  const key = new SoftAuthenticator();
  const options = (await (await post(attacker, '/auth/passkey/register/options', {})).json()) as never;
  expect(
    (await post(attacker, '/auth/passkey/register/verify', { response: JSON.stringify(key.register(options, APP)) }))
      .status,
  ).toBe(200);
  expect(await env.adapter.listAuthenticators(user.id)).toHaveLength(1);
  return { user, attacker, key };
}

async function attackerLockedOut(env: Env, userId: string, attacker: Browser) {
  expect(await attacker.session()).toBeNull();
  const again = new Browser(env.auth);
  expect((await post(again, '/auth/callback/credentials', { email: VICTIM, password: ATTACKER_PASSWORD })).status).toBe(
    401,
  );
  expect(await env.adapter.listAuthenticators(userId)).toHaveLength(0);
  expect((await env.adapter.getUser(userId))?.emailVerified).toBeInstanceOf(Date);
  expect(env.warnings.join('\n')).toMatch(
    /security event credentials-reset-on-email-proof: user \S+ .*removed 2 unverified sign-in method\(s\) and 1 passkey\(s\), revoked \d+ session/,
  );
  expect(env.warnings.join('\n')).not.toContain(ATTACKER_PASSWORD);
}

describe('account pre-hijacking defence', () => {
  it('a magic link proving the email removes the attacker’s password, passkey and sessions', async () => {
    const env = await setup();
    const { user, attacker } = await preHijack(env);
    const victim = new Browser(env.auth);
    await post(victim, '/auth/signin/email', { email: VICTIM });
    const link = new URL(env.sent[0]!.url);
    const res = await post(victim, '/auth/callback/email', { token: link.searchParams.get('token')!, email: VICTIM });
    expect(res.status).toBe(200);
    expect((await victim.session())?.user.id).toBe(user.id);
    await attackerLockedOut(env, user.id, attacker);
  });

  it('ends the attacker’s JWT sessions too (session version)', async () => {
    const env = await setup({ strategy: 'jwt', revalidateAge: 0 });
    const { user, attacker } = await preHijack(env);
    expect(await attacker.session()).not.toBeNull();
    const victim = new Browser(env.auth);
    await post(victim, '/auth/signin/email', { email: VICTIM });
    const link = new URL(env.sent[0]!.url);
    expect(
      (await post(victim, '/auth/callback/email', { token: link.searchParams.get('token')!, email: VICTIM })).status,
    ).toBe(200);
    expect((await victim.session())?.user.id).toBe(user.id);
    expect(await attacker.session()).toBeNull();
  });

  it('with default JWT revalidation, a second instance refuses the attacker’s old session when it adds a credential', async () => {
    const a = await setup({ strategy: 'jwt' });
    const b = await setup({ strategy: 'jwt' }, { adapter: a.adapter });
    const { attacker: onA } = await preHijack(a);
    // The attacker's browser now talks to instance B, which has confirmed the token recently.
    const onB = new Browser(b.auth);
    for (const [k, v] of onA.cookies) onB.cookies.set(k, v);
    expect(await onB.session()).not.toBeNull();
    const victim = new Browser(a.auth);
    await post(victim, '/auth/signin/email', { email: VICTIM });
    const link = new URL(a.sent[0]!.url);
    expect(
      (await post(victim, '/auth/callback/email', { token: link.searchParams.get('token')!, email: VICTIM })).status,
    ).toBe(200);
    expect(await onA.session()).toBeNull();
    const key = new SoftAuthenticator();
    const options = await post(onB, '/auth/passkey/register/options', {});
    expect(options.status).toBe(401);
    const verify = await post(onB, '/auth/passkey/register/verify', {
      response: JSON.stringify(
        key.register({ challenge: 'x', rp: { id: 'app.test' }, user: { id: 'eA' } } as never, APP),
      ),
    });
    expect(verify.status).toBeGreaterThanOrEqual(400);
  });

  it('an OAuth provider trusted for emails, reporting the email verified, does the same', async () => {
    const env = await setup();
    const { user, attacker } = await preHijack(env);
    const victim = new Browser(env.auth);
    patchNextIdToken(idp.server, { email: VICTIM, email_verified: true });
    const back = await victim.authorize(await victim.start('idp', '/home'));
    const res = await victim.app(back.href, { headers: { accept: 'application/json' } });
    expect(res.status).toBe(200);
    expect((await victim.session())?.user.id).toBe(user.id);
    await attackerLockedOut(env, user.id, attacker);
  });

  it('an untrusted provider claiming the email verified cannot shield the attacker’s account', async () => {
    const env = await setup();
    const attacker = new Browser(env.auth);
    patchNextIdToken(idp.server, { email: VICTIM, email_verified: true });
    const back = await attacker.authorize(await attacker.start('rogue', '/home'));
    expect((await attacker.app(back.href, { headers: { accept: 'application/json' } })).status).toBe(200);
    const user = (await env.adapter.getUserByEmail(VICTIM))!;
    expect(user.emailVerified).toBeNull();
    const victim = new Browser(env.auth);
    await post(victim, '/auth/signin/email', { email: VICTIM });
    const link = new URL(env.sent[0]!.url);
    expect(
      (await post(victim, '/auth/callback/email', { token: link.searchParams.get('token')!, email: VICTIM })).status,
    ).toBe(200);
    expect(await attacker.session()).toBeNull();
    expect((await env.adapter.listAccounts(user.id)).map((a) => a.provider)).toEqual(['email']);
  });

  it('keeps every credential of an account whose email was already verified', async () => {
    const env = await setup();
    const user = await env.passwords.register({ email: VICTIM, password: ATTACKER_PASSWORD });
    await env.adapter.updateUser(user.id, { emailVerified: new Date() });
    const owner = new Browser(env.auth);
    await post(owner, '/auth/callback/credentials', { email: VICTIM, password: ATTACKER_PASSWORD });
    const b = new Browser(env.auth);
    await post(b, '/auth/signin/email', { email: VICTIM });
    const link = new URL(env.sent[0]!.url);
    expect(
      (await post(b, '/auth/callback/email', { token: link.searchParams.get('token')!, email: VICTIM })).status,
    ).toBe(200);
    expect(await owner.session()).not.toBeNull();
    expect(
      (await post(new Browser(env.auth), '/auth/callback/credentials', { email: VICTIM, password: ATTACKER_PASSWORD }))
        .status,
    ).toBe(200);
    expect(env.warnings.join('\n')).not.toContain('security event');
  });

  it('an OAuth provider not trusted for emails proves nothing and links nothing', async () => {
    const env = await setup();
    const { user } = await preHijack(env);
    const untrusted = makeAuth({
      adapter: env.adapter,
      providers: [
        createOAuth2Provider({
          id: 'idp',
          name: 'IdP',
          issuer: idp.issuer,
          clientId: 'kit',
          clientSecret: 'kit-secret',
          profile: (c) => ({ id: `x-${String(c.sub)}`, email: VICTIM, emailVerified: new Date() }),
        }),
      ],
    });
    const b = new Browser(untrusted.auth);
    const back = await b.authorize(await b.start('idp', '/home'));
    const res = await b.app(back.href, { headers: { accept: 'application/json' } });
    expect(res.status).toBe(409);
    expect(await env.adapter.listAuthenticators(user.id)).toHaveLength(1);
  });
});
