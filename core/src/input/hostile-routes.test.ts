/**
 * The class test of input hygiene through the HTTP routes wired to `input/text.ts`: every route that takes an
 * address or a name answers 400 `INVALID_REQUEST` to each hostile character (controls, bidi, zero-width, BOM, line
 * separators, soft hyphen, tags, private use…) and stores nothing; an identity provider's address is refused, its
 * name dropped. The email-password routes are in `routes.test.ts`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuth } from '../auth.js';
import { credentials } from '../providers/credentials.js';
import { email, type EmailParams } from '../providers/email.js';
import { createOAuth2Provider } from '../providers/oauth/create.js';
import { Browser, makeAuth, patchNextIdToken, startProvider } from '../providers/oauth/oauth-harness.js';
import { passwordAccounts } from '../password-accounts.js';
import { passkey } from '../plugins/passkey/provider.js';
import { SoftAuthenticator } from '@framework/testing/webauthn';
import { admin } from '../plugins/admin/plugin.js';
import { createMemoryAdminStorage } from '../plugins/admin/storage/memory.js';
import { organizations } from '../plugins/organizations/plugin.js';
import { createMemoryInvitationStorage } from '../plugins/organizations/storage/memory.js';
import type { InvitationMail } from '../plugins/organizations/options.js';
import { createMemoryTenantStorage } from '../tenant/storage/memory.js';
import { createMemoryAdapter } from '../storage/memory.js';
import { EMAIL, ORIGIN, PASSWORD, SECRET, TestClient } from '../testing/fixtures.js';
import { HOSTILE_CHARACTERS, hostileAddresses, hostileNames } from './hostile.fixtures.js';

const ADMIN_EMAIL = 'root@example.com';

async function setup() {
  const adapter = createMemoryAdapter();
  const passwords = passwordAccounts(adapter);
  const sent: EmailParams[] = [];
  const mails: InvitationMail[] = [];
  const tenants = createMemoryTenantStorage();
  const invitations = createMemoryInvitationStorage();
  const auth = createAuth({
    secret: SECRET,
    baseURL: ORIGIN,
    adapter,
    providers: [
      credentials({
        credentials: { email: { label: 'E', type: 'email' }, password: { label: 'P', type: 'password' } },
        authorize: passwords.authorize,
      }),
      email({ from: 'login@app.test', sendVerificationRequest: async (p) => void sent.push(p) }),
      passkey({ rpName: 'Test', rpId: 'app.test', origin: ORIGIN, allowSignUp: true }),
    ],
    plugins: [
      admin({ storage: createMemoryAdminStorage() }),
      organizations({ tenants, invitations, sendInvitation: (m) => void mails.push(m) }),
    ],
    // Hundreds of refusals from one client: the login limiter would answer 429 before the parser does.
    rateLimit: { login: false },
    logger: { error: () => {}, warn: () => {} },
  });
  await passwords.register({ email: EMAIL, password: PASSWORD, name: 'Ada' });
  const root = await passwords.register({ email: ADMIN_EMAIL, password: PASSWORD });
  await adapter.updateUser(root.id, { role: 'admin' });
  const signedIn = async (address: string) => {
    const c = new TestClient(auth);
    expect((await c.signIn(address, PASSWORD)).status).toBe(200);
    return c;
  };
  const rootClient = await signedIn(ADMIN_EMAIL);
  const user = await signedIn(EMAIL);
  const org = await user.postJson('/auth/org/create', { name: 'Acme' });
  expect(org.status).toBe(200);
  const orgId = ((await org.json()) as { organization: { id: string } }).organization.id;
  const userCount = async () => (await adapter.listUsers!({ limit: 100 })).users.length;
  return { auth, adapter, sent, mails, tenants, invitations, rootClient, user, orgId, userCount };
}

let env: Awaited<ReturnType<typeof setup>>;
beforeAll(async () => {
  env = await setup();
});

async function refused(res: Response, label: string): Promise<void> {
  expect(res.status, label).toBe(400);
  expect(((await res.json()) as { error: { code: string } }).error.code, label).toBe('INVALID_REQUEST');
}

describe.each(HOSTILE_CHARACTERS)('a value with %s', (label, char) => {
  it('magic-link sign-in: 400, no token stored, no mail', async () => {
    for (const address of hostileAddresses(char)) {
      const c = new TestClient(env.auth);
      await refused(await c.postJson('/auth/signin/email', { email: address }), JSON.stringify(address));
    }
    expect(env.sent).toHaveLength(0);
  });

  it('passkey sign-up: 400 for the address and for the name, no challenge issued', async () => {
    const c = new TestClient(env.auth);
    for (const address of hostileAddresses(char))
      await refused(await c.postJson('/auth/passkey/register/options', { email: address }), JSON.stringify(address));
    for (const name of hostileNames(char))
      await refused(
        await c.postJson('/auth/passkey/register/options', { email: 'new@example.com', name }),
        JSON.stringify(name),
      );
    expect([...c.cookies.keys()].some((k) => k.includes('passkey-challenge'))).toBe(false);
  });

  it('admin create user: 400 for the address and for the name, nobody created', async () => {
    const before = await env.userCount();
    for (const address of hostileAddresses(char))
      await refused(
        await env.rootClient.postJson('/auth/admin/users/create', { email: address }),
        JSON.stringify(address),
      );
    for (const name of hostileNames(char)) {
      for (const password of [undefined, 'long-enough-password']) {
        const body = { email: 'grace@example.com', name, ...(password ? { password } : {}) };
        await refused(await env.rootClient.postJson('/auth/admin/users/create', body), JSON.stringify(name));
      }
    }
    expect(await env.userCount()).toBe(before);
  });

  it('organization create and update: 400 for the name, nothing created or renamed', async () => {
    const before = (await env.tenants.list({ limit: 100 })).tenants.length;
    for (const name of hostileNames(char)) {
      await refused(await env.user.postJson('/auth/org/create', { name }), JSON.stringify(name));
      await refused(
        await env.user.postJson('/auth/org/update', { organizationId: env.orgId, name }),
        JSON.stringify(name),
      );
    }
    expect((await env.tenants.list({ limit: 100 })).tenants.length).toBe(before);
    expect((await env.tenants.get(env.orgId))?.name).toBe('Acme');
  });

  it('invitation: 400 for the address, no invitation stored, no mail', async () => {
    for (const address of hostileAddresses(char))
      await refused(
        await env.user.postJson('/auth/org/invite', { organizationId: env.orgId, email: address }),
        JSON.stringify(address),
      );
    expect(await env.invitations.listByOrganization(env.orgId, 'pending')).toHaveLength(0);
    expect(env.mails).toHaveLength(0);
  });

  it('passwordAccounts.register: INVALID_REQUEST for the address and for the name, nobody created', async () => {
    const passwords = passwordAccounts(env.adapter);
    const before = await env.userCount();
    for (const address of hostileAddresses(char))
      await expect(passwords.register({ email: address, password: PASSWORD })).rejects.toMatchObject({
        code: 'INVALID_REQUEST',
        status: 400,
      });
    for (const name of hostileNames(char))
      await expect(passwords.register({ email: 'lin@example.com', password: PASSWORD, name })).rejects.toMatchObject({
        code: 'INVALID_REQUEST',
      });
    expect(await env.userCount()).toBe(before);
  });
});

describe('the same routes with clean values', () => {
  it('still accept them (the hostile answers above are not a blanket refusal)', async () => {
    const c = new TestClient(env.auth);
    expect((await c.postJson('/auth/signin/email', { email: ' Hedy@Example.com ' })).status).toBe(200);
    expect(env.sent.at(-1)?.identifier).toBe('hedy@example.com');
    const created = await env.rootClient.postJson('/auth/admin/users/create', {
      email: 'zoe@example.com',
      name: ' Zoë Ó Briain ',
    });
    expect(created.status).toBe(200);
    expect((await env.adapter.getUserByEmail('zoe@example.com'))?.name).toBe('Zoë Ó Briain');
    expect((await env.user.postJson('/auth/org/create', { name: 'شرکت\u200Cما', slug: 'sherkat' })).status).toBe(200);
    const invite = await env.user.postJson('/auth/org/invite', { organizationId: env.orgId, email: 'Lin@Example.com' });
    expect(invite.status).toBe(200);
    expect(env.mails.at(-1)?.email).toBe('lin@example.com');
  });
});

describe('a passkey label', () => {
  it.each(HOSTILE_CHARACTERS)('with %s: 400 and no passkey stored; a clean label registers', async (_l, c) => {
    const user = (await env.adapter.getUserByEmail(EMAIL))!;
    const before = (await env.adapter.listAuthenticators(user.id)).length;
    const attempt = async (name: string) => {
      const options = (await (await env.user.postJson('/auth/passkey/register/options', {})).json()) as never;
      const response = JSON.stringify(new SoftAuthenticator().register(options, ORIGIN));
      return env.user.postJson('/auth/passkey/register/verify', { response, name });
    };
    for (const name of hostileNames(c)) await refused(await attempt(name), JSON.stringify(name));
    expect(await env.adapter.listAuthenticators(user.id)).toHaveLength(before);
    expect((await attempt(' Laptop ')).status).toBe(200);
    const names = (await env.adapter.listAuthenticators(user.id)).map((a) => a.name);
    expect(names).toHaveLength(before + 1);
    expect(names).toContain('Laptop');
  });
});

describe('one spelling of an address', () => {
  it('finds an account registered in a decomposed spelling by its composed one, and the reverse', async () => {
    const passwords = passwordAccounts(env.adapter);
    const user = await passwords.register({ email: 'Jose\u0301@Example.com', password: PASSWORD });
    expect(user.email).toBe('Jos\u00e9@Example.com');
    expect((await passwords.authorize({ email: 'jos\u00e9@example.com', password: PASSWORD }))?.id).toBe(user.id);
    expect((await passwords.authorize({ email: 'JOSE\u0301@EXAMPLE.COM', password: PASSWORD }))?.id).toBe(user.id);
    const created = await env.rootClient.postJson('/auth/admin/users/create', { email: 'Rene\u0301@example.com' });
    expect(created.status).toBe(200);
    expect((await env.adapter.getUserByEmail('ren\u00e9@example.com'))?.email).toBe('Ren\u00e9@example.com');
  });
});

describe('a profile from an identity provider', () => {
  let idp: Awaited<ReturnType<typeof startProvider>>;
  beforeAll(async () => {
    idp = await startProvider();
  });
  afterAll(() => idp.stop());

  const oauth = () =>
    makeAuth({
      providers: [
        createOAuth2Provider({
          id: 'idp',
          name: 'IdP',
          issuer: idp.issuer,
          clientId: 'kit',
          clientSecret: 'kit-secret',
          profile: (c) => ({
            id: String(c.sub),
            email: (c.email as string) ?? null,
            name: (c.name as string) ?? null,
          }),
        }),
      ],
    });

  const signIn = async (auth: ReturnType<typeof makeAuth>['auth']) => {
    const b = new Browser(auth);
    const back = await b.authorize(await b.start('idp', '/home'));
    return { b, res: await b.app(back.href, { headers: { accept: 'application/json' } }) };
  };

  it.each(HOSTILE_CHARACTERS)('refuses an address with %s: no user, no account, no session', async (_label, char) => {
    const { auth, adapter } = oauth();
    patchNextIdToken(idp.server, { sub: `s-${char.codePointAt(0)}`, email: `ada${char}@example.com` });
    const { b, res } = await signIn(auth);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('OAUTH_CALLBACK_ERROR');
    expect((await adapter.listUsers!({})).users).toHaveLength(0);
    expect(await b.session()).toBeNull();
  });

  it.each(HOSTILE_CHARACTERS)('signs in but drops a name with %s', async (_label, char) => {
    const { auth, adapter } = oauth();
    patchNextIdToken(idp.server, { sub: `n-${char.codePointAt(0)}`, email: 'ada@example.com', name: `Ada${char}` });
    const { b, res } = await signIn(auth);
    expect(res.status).toBe(200);
    const stored = (await adapter.getUserByEmail('ada@example.com'))!;
    expect(stored.name).toBeNull();
    expect((await b.session())?.user.name ?? null).toBeNull();
  });

  it('keeps a clean name, trimmed', async () => {
    const { auth, adapter } = oauth();
    patchNextIdToken(idp.server, { sub: 'clean', email: 'ada@example.com', name: ' Ada Lovelace ' });
    expect((await signIn(auth)).res.status).toBe(200);
    expect((await adapter.getUserByEmail('ada@example.com'))?.name).toBe('Ada Lovelace');
  });
});
