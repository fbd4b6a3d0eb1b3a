/**
 * `sso()` end to end with OIDC against a real OpenID Provider (oidc-provider, in-process on port 0): an owner
 * registers the provider and proves the domain through an injected TXT lookup, people sign in by their work
 * email, are created or linked just in time and join the organization with the mapped role.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresSchemas } from '../../../../test-support/pg-schemas.js';
import { postgresAdapterIn } from '../../storage/sql/sql-test-support.js';
import { createSqliteAdapter } from '../../storage/sql/sqlite.js';
import type { StorageAdapter } from '../../storage/types.js';
import { ORIGIN, makeFixture, type TestClient } from '../../testing/fixtures.js';
import { passwordAccounts } from '../../password-accounts.js';
import { STRICT_CLIENTS, startStrictProvider, type StrictProvider } from '../../providers/oauth/strict-provider.js';
import { registerAcme } from './acme.test-helpers.js';
import { organizations } from '../organizations/index.js';
import { sso, type SsoExtension, type SsoOptions } from './index.js';
import { pinnedFetch } from './issuer-transport.js';
import { accountProviderId } from './oidc.js';

let op: StrictProvider;
beforeAll(async () => {
  op = await startStrictProvider([`${ORIGIN}/auth/sso/callback/acme`, `${ORIGIN}/auth/sso/callback/other`]);
  op.accounts.set('alice', { sub: 'alice', email: 'alice@acme.test', email_verified: true, groups: ['acme-admins'] });
  op.accounts.set('bob', { sub: 'bob', email: 'bob@acme.test', email_verified: true, name: 'Bob' });
  op.accounts.set('carol', { sub: 'carol', email: 'carol@acme.test', email_verified: true, name: 'Carol' });
  op.accounts.set('dave', { sub: 'dave', email: 'dave@other.test', email_verified: true });
});
afterAll(() => op.stop());

const json = async (res: Response) => (await res.json()) as Record<string, any>;

async function setup(adapter?: StorageAdapter, extra: Partial<SsoOptions> = {}) {
  const txt = new Map<string, string[][]>();
  const orgs = organizations({ sendInvitation: () => {} });
  const f = await makeFixture('database', {
    ...(adapter ? { adapter } : {}),
    plugins: [
      orgs,
      sso({
        organizations: orgs,
        // The test OP listens on http://127.0.0.1; the fixture's origin (http://app.test) is no base URL.
        allowPrivateIssuers: true,
        resolveTxt: async (name) => {
          const records = txt.get(name);
          if (!records) throw Object.assign(new Error(`queryTxt ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
          return records;
        },
        ...extra,
      }),
    ],
  });
  await f.auth.migrate();
  /** A browser with a client IP, as a server adapter hands it over. */
  const client = () => Object.assign(f.client(), { ip: '203.0.113.7' });
  const owner = client();
  expect((await owner.signIn()).status).toBe(200);
  const created = await json(await owner.postJson('/auth/org/create', { name: 'Acme', slug: 'acme' }));
  const organizationId = created.organization.id as string;

  const register = (c: TestClient, body: Record<string, string> = {}) =>
    registerAcme(c, organizationId, op.issuer, body);
  /** Claims `domain`, publishes the token (unless `publish` is false) and asks to verify. */
  const prove = async (domain: string, publish = true) => {
    const claim = await json(await owner.postJson('/auth/sso/domains/claim', { organizationId, domain }));
    if (publish) txt.set(claim.txtName, [['v=spf1 -all'], [claim.txtValue]]);
    return owner.postJson('/auth/sso/domains/verify', { organizationId, domain });
  };
  /** Signs in with SSO by `email` as the provider's `sub`; the app's answer to the callback. */
  const signInAs = async (c: TestClient, email: string, sub: string) => {
    const start = await c.postForm('/auth/sso/sign-in', { email, callbackUrl: '/home' });
    expect(start.status).toBe(303);
    const back = await op.authorize(new URL(start.headers.get('location')!), sub);
    return c.request(`${back.pathname}${back.search}`, { headers: { accept: 'text/html' } });
  };
  const members = async () => {
    const res = await owner.request(`/auth/org/members?organizationId=${organizationId}`);
    const list = (await json(res)).members as Array<{ userId: string; role: string }>;
    return new Map(list.map((m) => [m.userId, m.role]));
  };
  return { ...f, client, orgs, owner, organizationId, register, prove, signInAs, members, txt };
}

describe('sso() with OIDC', () => {
  it('runs the whole flow over the pinned node:http transport (discovery, token, JWKS, UserInfo)', async () => {
    const sent: string[] = [];
    const pinned = pinnedFetch(async () => [{ address: '127.0.0.1', family: 4 }]);
    const t = await setup(undefined, {
      fetch: (input, init) => (sent.push(new Request(input, init).url), pinned(input, init)),
    });
    expect((await t.register(t.owner)).status).toBe(200);
    expect((await t.prove('acme.test')).status).toBe(200);
    const alice = t.client();
    const res = await t.signInAs(alice, 'alice@acme.test', 'alice');
    expect(res.status).toBe(303);
    expect((await alice.session())?.user.email).toBe('alice@acme.test');
    expect(sent).toEqual(
      ['/.well-known/openid-configuration', '/token', '/jwks', '/me'].map((p) => `${op.issuer}${p}`),
    );
  });

  it('registers a provider (secret encrypted at rest, never shown), proves the domain, and signs people in by email', async () => {
    const t = await setup();
    const registered = await t.register(t.owner);
    expect(registered.status).toBe(200);
    const { provider } = await json(registered);
    expect(provider).toMatchObject({ id: 'acme', type: 'oidc', domain: 'acme.test' });
    expect(JSON.stringify(provider)).not.toContain(STRICT_CLIENTS.plain.clientSecret);
    const stored = await (t.auth.extensions as { sso: SsoExtension }).sso.storage.getProvider('acme');
    expect(stored!.oidc!.clientSecret).toMatch(/^enc:v1:/);
    expect(stored!.oidc!.clientSecret).not.toContain(STRICT_CLIENTS.plain.clientSecret);

    expect((await t.prove('acme.test')).status).toBe(200);

    const alice = t.client();
    const res = await t.signInAs(alice, 'alice@acme.test', 'alice');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/home');
    const session = await alice.session();
    expect(session?.user.email).toBe('alice@acme.test');
    expect((await t.adapter.getUser(session!.user.id))?.emailVerified).toBeInstanceOf(Date);
    const accountProvider = await accountProviderId(stored!);
    expect(accountProvider).toMatch(/^sso-acme-[0-9a-f]{10}$/);
    expect(await t.adapter.getAccount({ provider: accountProvider, providerAccountId: 'alice' })).toMatchObject({
      userId: session!.user.id,
    });
    // groups: ['acme-admins'] maps to admin; without the claim, the default role.
    expect((await t.members()).get(session!.user.id)).toBe('admin');
    const bob = t.client();
    await t.signInAs(bob, 'bob@acme.test', 'bob');
    const bobId = (await bob.session())!.user.id;
    expect((await t.members()).get(bobId)).toBe('member');

    // A second sign-in finds the same user through the linked account; the membership stays one.
    const again = t.client();
    expect((await t.signInAs(again, 'alice@acme.test', 'alice')).headers.get('location')).toBe('/home');
    expect((await again.session())?.user.id).toBe(session!.user.id);
    expect([...(await t.members()).keys()].filter((id) => id === session!.user.id)).toHaveLength(1);
  });

  it('routes by organization slug and by provider id too, and answers JSON clients with the URL', async () => {
    const t = await setup();
    await t.register(t.owner);
    const c = t.client();
    for (const body of [{ organizationSlug: 'acme' }, { providerId: 'acme' }]) {
      const res = await c.postJson('/auth/sso/sign-in', body);
      expect(res.status).toBe(200);
      const url = new URL((await json(res)).url as string);
      expect(url.origin).toBe(op.issuer);
      expect(url.searchParams.get('redirect_uri')).toBe(`${ORIGIN}/auth/sso/callback/acme`);
      expect(url.searchParams.get('code_challenge_method')).toBe('S256');
      expect(url.searchParams.get('nonce')).toBeTruthy();
    }
  });

  it('never routes by a domain that is not verified', async () => {
    const t = await setup();
    await t.register(t.owner);
    const c = t.client();
    // Claimed but not proven: no TXT record with the token.
    expect((await t.prove('acme.test', false)).status).toBe(400);
    const res = await c.postJson('/auth/sso/sign-in', { email: 'alice@acme.test' });
    expect(res.status).toBe(404);
    expect((await json(res)).error.code).toBe('SSO_NO_PROVIDER');
    const page = await c.postForm('/auth/sso/sign-in', { email: 'alice@acme.test' });
    expect(page.status).toBe(404);
    expect(await page.text()).toContain('Single sign-on is not set up for this account');
    // A TXT record with another value does not prove it either.
    t.txt.set('_framework-sso.acme.test', [['framework-sso-verification=someone-else']]);
    const verify = await t.owner.postJson('/auth/sso/domains/verify', {
      organizationId: t.organizationId,
      domain: 'acme.test',
    });
    expect([verify.status, (await json(verify)).error.code]).toEqual([400, 'SSO_DOMAIN_UNVERIFIED']);
    expect((await c.postJson('/auth/sso/sign-in', { email: 'alice@acme.test' })).status).toBe(404);
  });

  it('does not hand a pre-registered unverified account to its registrant: their password and session end', async () => {
    const t = await setup();
    await t.register(t.owner);
    await t.prove('acme.test');
    // Someone registered carol@acme.test with a password without proving the address, and is signed in.
    const squatter = await passwordAccounts(t.adapter).register({
      email: 'carol@acme.test',
      password: 'squatter-pw-1',
    });
    const attacker = t.client();
    expect((await attacker.signIn('carol@acme.test', 'squatter-pw-1')).status).toBe(200);

    const carol = t.client();
    expect((await t.signInAs(carol, 'carol@acme.test', 'carol')).status).toBe(303);
    expect((await carol.session())?.user.id).toBe(squatter.id);
    expect(await attacker.session()).toBeNull();
    expect((await t.client().signIn('carol@acme.test', 'squatter-pw-1')).status).toBe(401);
    expect((await t.members()).get(squatter.id)).toBe('member');
  });

  it('does not link an account by an email outside the organization’s proven domains', async () => {
    const t = await setup();
    // The provider of Acme asserts dave@other.test, a domain Acme never proved; a user with that email exists.
    await t.register(t.owner, { providerId: 'other', domain: '' });
    await passwordAccounts(t.adapter).register({ email: 'dave@other.test', password: 'dave-password-1' });
    const c = t.client();
    const start = await c.postJson('/auth/sso/sign-in', { providerId: 'other' });
    const back = await op.authorize(new URL((await json(start)).url as string), 'dave');
    const res = await c.request(`${back.pathname}${back.search}`, { headers: { accept: 'text/html' } });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toContain('error=OAuthAccountNotLinked');
    expect(await c.session()).toBeNull();
  });

  it('a provider id registered again by another organization never signs in as the users the old one created', async () => {
    const t = await setup();
    await t.register(t.owner);
    await t.prove('acme.test');
    const alice = t.client();
    await t.signInAs(alice, 'alice@acme.test', 'alice');
    const aliceId = (await alice.session())!.user.id;
    const del = { organizationId: t.organizationId, providerId: 'acme' };
    expect((await t.owner.postJson('/auth/sso/providers/delete', del)).status).toBe(200);

    // Another organization takes the freed id for an IdP of its own that asserts the same subject.
    const mallory = t.client();
    await passwordAccounts(t.adapter).register({ email: 'mallory@evil.test', password: 'mallory-pw-12' });
    await mallory.signIn('mallory@evil.test', 'mallory-pw-12');
    const evil = (await json(await mallory.postJson('/auth/org/create', { name: 'Evil', slug: 'evil' }))).organization;
    const taken = await mallory.postJson('/auth/sso/providers/register', {
      organizationId: evil.id,
      providerId: 'acme',
      name: 'Not Acme',
      issuer: op.issuer,
      ...STRICT_CLIENTS.plain,
    });
    expect(taken.status).toBe(200);
    const victim = t.client();
    const start = await victim.postJson('/auth/sso/sign-in', { providerId: 'acme' });
    const back = await op.authorize(new URL((await json(start)).url as string), 'alice');
    await victim.request(`${back.pathname}${back.search}`, { headers: { accept: 'text/html' } });
    expect((await victim.session())?.user.id).not.toBe(aliceId);
  });

  it('drops the providers and domains of a deleted organization', async () => {
    const t = await setup();
    await t.register(t.owner);
    await t.prove('acme.test');
    const storage = (t.auth.extensions as { sso: SsoExtension }).sso.storage;
    expect((await t.owner.postJson('/auth/org/delete', { organizationId: t.organizationId })).status).toBe(200);
    expect(await storage.getProvider('acme')).toBeNull();
    expect(await storage.verifiedDomain('acme.test')).toBeNull();
    expect((await t.client().postJson('/auth/sso/sign-in', { email: 'alice@acme.test' })).status).toBe(404);
  });

  it('lets only managers register, list and delete providers or claim domains', async () => {
    const t = await setup();
    await t.register(t.owner);
    await t.prove('acme.test');
    const bob = t.client();
    await t.signInAs(bob, 'bob@acme.test', 'bob'); // a member now
    const refused = await t.register(bob, { providerId: 'mine' });
    expect([refused.status, (await json(refused)).error.code]).toEqual([403, 'FORBIDDEN']);
    const claim = await bob.postJson('/auth/sso/domains/claim', { organizationId: t.organizationId, domain: 'x.test' });
    expect(claim.status).toBe(403);
    const del = await bob.postJson('/auth/sso/providers/delete', {
      organizationId: t.organizationId,
      providerId: 'acme',
    });
    expect(del.status).toBe(403);
    // Someone outside the organization is told it does not exist.
    const outsider = t.client();
    await passwordAccounts(t.adapter).register({ email: 'out@example.com', password: 'outsider-pw-1' });
    await outsider.signIn('out@example.com', 'outsider-pw-1');
    expect((await t.register(outsider, { providerId: 'out' })).status).toBe(404);
    expect((await t.client().request(`/auth/sso/providers?organizationId=${t.organizationId}`)).status).toBe(401);

    const list = await json(await t.owner.request(`/auth/sso/providers?organizationId=${t.organizationId}`));
    expect(list.providers.map((p: { id: string }) => p.id)).toEqual(['acme']);
    const again = await t.register(t.owner);
    expect([again.status, (await json(again)).error.code]).toEqual([409, 'SSO_PROVIDER_EXISTS']);
    expect(
      (await t.owner.postJson('/auth/sso/providers/delete', { organizationId: t.organizationId, providerId: 'acme' }))
        .status,
    ).toBe(200);
    expect((await t.client().postJson('/auth/sso/sign-in', { email: 'bob@acme.test' })).status).toBe(404);
  });

  it('shows the sign-in page with its email form, linked from the sign-in page', async () => {
    const t = await setup();
    const page = await t.client().request('/auth/sso/sign-in', { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('action="/auth/sso/sign-in"');
    expect(html).toContain('name="email"');
    const signIn = await (await t.client().request('/auth/signin', { headers: { accept: 'text/html' } })).text();
    expect(signIn).toContain('href="/auth/sso/sign-in"');
    // In the person's language, the refusal too (its code stays).
    const de = { accept: 'text/html', 'accept-language': 'de-AT,de;q=0.9' };
    const german = await t.client().request('/auth/sso/sign-in', { headers: de });
    expect(german.headers.get('content-language')).toBe('de');
    expect(await german.text()).toContain('Mit SSO anmelden');
    const germanSignIn = await (await t.client().request('/auth/signin', { headers: de })).text();
    expect(germanSignIn).toMatch(/href="\/auth\/sso\/sign-in[^"]*">Mit SSO anmelden</);
    const refused = await t
      .client()
      .postForm('/auth/sso/sign-in', { email: 'x@nowhere.test' }, { 'accept-language': 'de' });
    expect(refused.status).toBe(404);
    expect(await refused.text()).toContain('Für dieses Konto ist keine Einmalanmeldung eingerichtet');
  });
});

/** The first sign-in, a manager's page, and a second sign-in, with every record in the app's SQL database. */
function inTheAppDatabase(name: string, open: () => Promise<StorageAdapter>) {
  it(`keeps providers, domains, users and members in the app database (${name}, auth.migrate())`, async () => {
    const adapter = await open();
    try {
      const t = await setup(adapter);
      expect((await t.register(t.owner)).status).toBe(200);
      expect((await t.prove('acme.test')).status).toBe(200);
      const alice = t.client();
      expect((await t.signInAs(alice, 'alice@acme.test', 'alice')).headers.get('location')).toBe('/home');
      const id = (await alice.session())!.user.id;
      expect((await t.members()).get(id)).toBe('admin');
      const page = await t.owner.request(`/auth/sso/manage?organizationId=${t.organizationId}`, {
        headers: { accept: 'text/html' },
      });
      const html = await page.text();
      expect(html).toContain('Acme IdP');
      expect(html).toContain('acme.test: verified');
      const again = t.client();
      await t.signInAs(again, 'alice@acme.test', 'alice');
      expect((await again.session())?.user.id).toBe(id);
    } finally {
      await adapter.close?.();
    }
  });
}

describe('sso() on SQL', () => {
  inTheAppDatabase('SQLite', async () => createSqliteAdapter({ filename: ':memory:' }));
});

// Under CI=true this throws when PostgreSQL is down, failing the file.
const pg = await postgresSchemas('sso_e2e');
describe.skipIf(!pg.available)('sso() on PostgreSQL', () => {
  afterAll(() => pg.dropAll());
  inTheAppDatabase('PostgreSQL', () => postgresAdapterIn(pg, { max: 4 }));
});

describe('sso() manager page', () => {
  it('claims a domain by the form and shows the TXT record once; a refused form shows the page with the reason', async () => {
    const t = await setup();
    const res = await t.owner.postForm('/auth/sso/domains/claim', {
      organizationId: t.organizationId,
      domain: 'Acme.Test',
    });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toMatch(/<code>_framework-sso\.acme\.test<\/code>/);
    expect(html).toMatch(/<code>framework-sso-verification=[A-Za-z0-9_-]{32}<\/code>/);
    const page = await (
      await t.owner.request(`/auth/sso/manage?organizationId=${t.organizationId}`, { headers: { accept: 'text/html' } })
    ).text();
    expect(page).toContain('acme.test: not verified');
    expect(page).not.toContain('framework-sso-verification=');
    const german = await t.owner.request(`/auth/sso/manage?organizationId=${t.organizationId}`, {
      headers: { accept: 'text/html', 'accept-language': 'de' },
    });
    expect(await german.text()).toContain(
      'acme.test: nicht bestätigt (TXT-Eintrag unter <code>_framework-sso.acme.test</code>)',
    );
    const refused = await t.owner.postForm('/auth/sso/domains/verify', {
      organizationId: t.organizationId,
      domain: 'acme.test',
    });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('The DNS TXT record with the verification token was not found');
    const bad = await t.owner.postForm('/auth/sso/providers/register', {
      organizationId: t.organizationId,
      type: 'oidc',
      name: 'No issuer',
    });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('`issuer` is required');
  });
});
