/**
 * `sso()` attacked as a class, through the routes with a real OpenID Provider (oidc-provider on port 0) and two
 * organizations: Acme (provider `acme`, domain acme.test) and Beta (domain beta.test, no provider). Domain claims
 * (case, dots, homographs, invisible characters, subdomains, split and failing TXT lookups), routing and what it
 * reveals, provisioning across tenants, roles, bans, the OIDC callback and redirects, CSRF, and secrets.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passwordAccounts } from '../../password-accounts.js';
import { STRICT_CLIENTS, startStrictProvider, type StrictProvider } from '../../providers/oauth/strict-provider.js';
import { registerAcme } from './acme.test-helpers.js';
import { ORIGIN, makeFixture, type TestClient } from '../../testing/fixtures.js';
import { admin } from '../admin/index.js';
import { organizations } from '../organizations/index.js';
import { sso, type SsoExtension } from './index.js';

let op: StrictProvider;
beforeAll(async () => {
  op = await startStrictProvider([`${ORIGIN}/auth/sso/callback/acme`, `${ORIGIN}/auth/sso/callback/other`]);
  op.accounts.set('alice', { sub: 'alice', email: 'alice@acme.test', email_verified: true });
  op.accounts.set('bob', { sub: 'bob', email: 'bob@acme.test', email_verified: true });
  op.accounts.set('eve', { sub: 'eve', email: 'eve@acme.test', email_verified: false });
  // Acme's IdP asserting an address in Beta's proven domain.
  op.accounts.set('mallory', { sub: 'mallory', email: 'victim@beta.test', email_verified: true });
});
afterAll(() => op.stop());

const json = async (res: Response) => (await res.json()) as Record<string, any>;
const codeOf = async (res: Response) => [res.status, (await json(res)).error?.code];

async function setup() {
  const txt = new Map<string, string[][] | Error>();
  const logs: string[] = [];
  const orgs = organizations({ sendInvitation: () => {} });
  const f = await makeFixture('database', {
    logger: { error: (m) => logs.push(m), warn: (m) => logs.push(m) },
    // Every client here shares one IP; the limit on claiming and verifying is tested in issuer-policy.test.ts.
    rateLimit: { login: false },
    plugins: [
      orgs,
      admin(),
      sso({
        organizations: orgs,
        // The test OP listens on http://127.0.0.1; the fixture's origin (http://app.test) is no base URL.
        allowPrivateIssuers: true,
        resolveTxt: async (name) => {
          const records = txt.get(name);
          if (records instanceof Error) throw records;
          if (!records) throw Object.assign(new Error(`queryTxt ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
          return records;
        },
      }),
    ],
  });
  await f.auth.migrate();
  const storage = (f.auth.extensions as { sso: SsoExtension }).sso.storage;
  const client = () => Object.assign(f.client(), { ip: '203.0.113.7' });
  const signedIn = async (email: string) => {
    await passwordAccounts(f.adapter).register({ email, password: 'a-long-password-1' });
    const c = client();
    expect((await c.signIn(email, 'a-long-password-1')).status).toBe(200);
    return c;
  };
  const owner = client();
  expect((await owner.signIn()).status).toBe(200);
  const acme = (await json(await owner.postJson('/auth/org/create', { name: 'Acme', slug: 'acme' }))).organization
    .id as string;
  const betaOwner = await signedIn('owner@beta.test');
  const beta = (await json(await betaOwner.postJson('/auth/org/create', { name: 'Beta', slug: 'beta' }))).organization
    .id as string;

  const register = (c: TestClient, body: Record<string, string> = {}) => registerAcme(c, acme, op.issuer, body);
  /** `c` claims `domain` for `organizationId`, publishes the token at the name the claim answered, and verifies. */
  const prove = async (c: TestClient, organizationId: string, domain: string) => {
    const claim = await json(await c.postJson('/auth/sso/domains/claim', { organizationId, domain }));
    txt.set(claim.txtName, [['v=spf1 -all'], [claim.txtValue]]);
    return c.postJson('/auth/sso/domains/verify', { organizationId, domain });
  };
  /** Starts at the provider `providerId` (or by `email`) and comes back from the IdP as `sub`: the callback URL. */
  const through = async (c: TestClient, sub: string, start: Record<string, string>) => {
    const res = await c.postForm('/auth/sso/sign-in', start);
    expect(res.status).toBe(303);
    const back = await op.authorize(new URL(res.headers.get('location')!), sub);
    return `${back.pathname}${back.search}`;
  };
  const signInAs = async (c: TestClient, sub: string, start: Record<string, string> = { providerId: 'acme' }) =>
    c.request(await through(c, sub, start), { headers: { accept: 'text/html' } });
  const members = async (organizationId = acme, c = owner) => {
    const res = await c.request(`/auth/org/members?organizationId=${organizationId}`);
    const list = (await json(res)).members as Array<{ userId: string; role: string }>;
    return new Map(list.map((m) => [m.userId, m.role]));
  };
  expect((await register(owner)).status).toBe(200);
  expect((await prove(owner, acme, 'acme.test')).status).toBe(200);
  expect((await prove(betaOwner, beta, 'beta.test')).status).toBe(200);
  return {
    ...f,
    txt,
    logs,
    storage,
    client,
    signedIn,
    owner,
    betaOwner,
    acme,
    beta,
    register,
    prove,
    through,
    signInAs,
    members,
  };
}

/** Where `POST /sso/sign-in` sends a JSON client: the IdP's authorization URL, or the refusal. */
async function route(c: TestClient, body: Record<string, string>) {
  const res = await c.postJson('/auth/sso/sign-in', body);
  return res.status === 200 ? new URL((await json(res)).url as string).origin : await json(res);
}

describe('sso() domain claims under attack', () => {
  it('a domain verified by one organization is never verified by another, however it is spelled', async () => {
    const t = await setup();
    for (const [i, spelling] of ['acme.test', 'ACME.test', 'acme.test.', ' Acme.Test. '].entries()) {
      t.betaOwner.ip = `198.51.100.${i + 1}`; // each verify from its own address, under the DNS rate limit
      const claim = await t.betaOwner.postJson('/auth/sso/domains/claim', { organizationId: t.beta, domain: spelling });
      expect(claim.status).toBe(200);
      const { txtName, txtValue } = await json(claim);
      expect(txtName).toBe('_framework-sso.acme.test');
      // Even with Beta's token published at the name (a DNS host that serves both), Acme keeps the domain.
      t.txt.set(txtName, [[txtValue]]);
      const verify = await t.betaOwner.postJson('/auth/sso/domains/verify', {
        organizationId: t.beta,
        domain: spelling,
      });
      expect(await codeOf(verify)).toEqual([409, 'SSO_DOMAIN_TAKEN']);
      expect((await t.storage.verifiedDomain('acme.test'))?.organizationId).toBe(t.acme);
    }
    expect(await route(t.client(), { email: 'alice@acme.test' })).toBe(op.issuer);
  });

  it('refuses homographs, invisible and non-ASCII characters, and lookalike forms as not a domain name', async () => {
    const t = await setup();
    for (const domain of [
      'аcme.test', // Cyrillic а
      'acme\u200b.test', // zero-width space
      'ac\u00adme.test', // soft hyphen
      'acme.test\u200d',
      'ａｃｍｅ.test', // fullwidth (NFKC folds it to acme.test)
      'acme.test\u0000',
      'acme。test', // ideographic full stop
      'acme.test/',
      'acme.test:443',
      '*.acme.test',
      'acme.test..',
    ]) {
      const res = await t.betaOwner.postJson('/auth/sso/domains/claim', { organizationId: t.beta, domain });
      expect(await codeOf(res), JSON.stringify(domain)).toEqual([400, 'SSO_DOMAIN_INVALID']);
    }
    expect(await t.storage.listDomains(t.beta)).toHaveLength(1); // beta.test only
    // The punycode form of an IDN is a different name: claimable, and it proves nothing about acme.test.
    const idn = await t.betaOwner.postJson('/auth/sso/domains/claim', {
      organizationId: t.beta,
      domain: 'xn--cme-8cd.test',
    });
    expect(idn.status).toBe(200);
  });

  it('a verified domain covers exactly that name: neither its subdomains nor a longer name route', async () => {
    const t = await setup();
    const c = t.client();
    for (const email of ['x@evil.acme.test', 'x@acme.test.evil', 'x@xacme.test', 'x@acme.tes', 'x@acme.test\u200b'])
      expect(await route(c, { email }), email).toMatchObject({ error: { code: 'SSO_NO_PROVIDER' } });
  });

  it('verifies with a token split into character-strings and among other records', async () => {
    const t = await setup();
    const claim = await json(
      await t.betaOwner.postJson('/auth/sso/domains/claim', { organizationId: t.beta, domain: 'eu.beta.test' }),
    );
    const value = claim.txtValue as string;
    t.txt.set(claim.txtName, [['google-site-verification=x'], [value.slice(0, 10), value.slice(10)], ['v=spf1 -all']]);
    const res = await t.betaOwner.postJson('/auth/sso/domains/verify', {
      organizationId: t.beta,
      domain: 'eu.beta.test',
    });
    expect(res.status).toBe(200);
    expect((await t.storage.verifiedDomain('eu.beta.test'))?.organizationId).toBe(t.beta);
  });

  it('a TXT value that only contains the token, or a record of the name without the label, does not verify', async () => {
    const t = await setup();
    const claim = await json(
      await t.betaOwner.postJson('/auth/sso/domains/claim', { organizationId: t.beta, domain: 'eu.beta.test' }),
    );
    const verify = () =>
      t.betaOwner.postJson('/auth/sso/domains/verify', { organizationId: t.beta, domain: 'eu.beta.test' });
    t.txt.set(claim.txtName, [[`x${claim.txtValue}`], [`${claim.txtValue} extra`]]);
    expect(await codeOf(await verify())).toEqual([400, 'SSO_DOMAIN_UNVERIFIED']);
    t.txt.delete(claim.txtName);
    t.txt.set('eu.beta.test', [[claim.txtValue]]);
    expect(await codeOf(await verify())).toEqual([400, 'SSO_DOMAIN_UNVERIFIED']);
    expect(await t.storage.verifiedDomain('eu.beta.test')).toBeNull();
  });

  it('a failing or timing-out TXT lookup answers 400 SSO_DOMAIN_UNVERIFIED, verifies nothing and echoes nothing', async () => {
    const t = await setup();
    const claim = await json(
      await t.betaOwner.postJson('/auth/sso/domains/claim', { organizationId: t.beta, domain: 'eu.beta.test' }),
    );
    for (const error of [
      Object.assign(new Error('queryTxt ETIMEOUT _framework-sso.eu.beta.test at 10.0.0.53'), { code: 'ETIMEOUT' }),
      Object.assign(new Error('queryTxt ESERVFAIL'), { code: 'ESERVFAIL' }),
    ]) {
      t.txt.set(claim.txtName, error);
      const res = await t.betaOwner.postJson('/auth/sso/domains/verify', {
        organizationId: t.beta,
        domain: 'eu.beta.test',
      });
      expect(res.status).toBe(400);
      const body = JSON.stringify(await json(res));
      expect(body).toContain('SSO_DOMAIN_UNVERIFIED');
      expect(body).not.toContain('10.0.0.53');
      expect(body).not.toContain('ESERVFAIL');
    }
    expect(await t.storage.verifiedDomain('eu.beta.test')).toBeNull();
  });
});

describe('sso() routing under attack', () => {
  it('routes an email by the domain after its last @, in any case and with surrounding space', async () => {
    const t = await setup();
    const c = t.client();
    for (const email of [
      'ALICE@ACME.TEST',
      '  alice@acme.test  ',
      'alice+tag@acme.test',
      '"victim@beta.test"@acme.test',
      'victim@beta.test@acme.test',
    ])
      expect(await route(c, { email }), email).toBe(op.issuer);
    // The other way round, Acme's IdP is never reached for Beta's domain.
    for (const email of ['alice@acme.test@beta.test', '"alice@acme.test"@beta.test', 'alice@acme.test beta.test'])
      expect(await route(c, { email }), email).toMatchObject({ error: { code: 'SSO_NO_PROVIDER' } });
  });

  it('answers every kind of "no provider here" with one and the same refusal (no tenant enumeration by shape)', async () => {
    const t = await setup();
    const noProvider = await t.signedIn('x@gamma.test');
    await noProvider.postJson('/auth/org/create', { name: 'Gamma', slug: 'gamma' });
    await t.betaOwner.postJson('/auth/sso/domains/claim', { organizationId: t.beta, domain: 'claimed.test' });
    const c = t.client();
    const answers = [];
    for (const body of [
      { email: 'x@nowhere.test' }, // no claim at all
      { email: 'x@claimed.test' }, // claimed, not verified
      { email: 'x@beta.test' }, // verified, no provider
      { email: 'not an email' },
      { organizationSlug: 'no-such-org' },
      { organizationSlug: 'gamma' }, // exists, no provider
      { providerId: 'no-such-provider' },
      { providerId: '../acme' },
      {},
    ]) {
      const res = await c.postJson('/auth/sso/sign-in', body);
      answers.push([res.status, await res.text()]);
    }
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(answers[0]![0]).toBe(404);
  });
});

describe('sso() provisioning under attack', () => {
  it('an IdP of one organization never signs in, links or creates a user in a domain another organization proved', async () => {
    const t = await setup();
    const c = t.client();
    const res = await t.signInAs(c, 'mallory');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toContain('error=OAuthAccountNotLinked');
    expect(await c.session()).toBeNull();
    expect(await t.adapter.getUserByEmail('victim@beta.test')).toBeNull();
    // With Beta's person registered, the same: refused, and not made a member of Acme.
    const victim = await passwordAccounts(t.adapter).register({ email: 'victim@beta.test', password: 'victim-pw-123' });
    const again = t.client();
    expect((await t.signInAs(again, 'mallory')).headers.get('location')).toContain('error=OAuthAccountNotLinked');
    expect(await again.session()).toBeNull();
    expect(await t.adapter.listAccounts(victim.id)).toHaveLength(1); // the password only
    expect((await t.members()).has(victim.id)).toBe(false);
  });

  it('an IdP reporting email_verified false neither links the existing user nor proves the address', async () => {
    const t = await setup();
    const eve = await passwordAccounts(t.adapter).register({ email: 'eve@acme.test', password: 'eve-password-12' });
    const holder = t.client();
    expect((await holder.signIn('eve@acme.test', 'eve-password-12')).status).toBe(200);
    const c = t.client();
    expect((await t.signInAs(c, 'eve')).headers.get('location')).toContain('error=OAuthAccountNotLinked');
    expect(await c.session()).toBeNull();
    expect((await t.adapter.getUser(eve.id))?.emailVerified).toBeNull();
    expect((await holder.session())?.user.id).toBe(eve.id); // nothing was reset
  });

  it('a banned user is refused at the SSO sign-in, no session issued', async () => {
    const t = await setup();
    const first = t.client();
    expect((await t.signInAs(first, 'bob')).status).toBe(303);
    const bobId = (await first.session())!.user.id;
    const root = await t.signedIn('root@example.net');
    await t.adapter.updateUser((await root.session())!.user.id, { role: 'admin' });
    expect((await root.postJson('/auth/admin/users/ban', { userId: bobId, reason: 'test' })).status).toBe(200);
    expect(await first.session()).toBeNull();
    const c = t.client();
    const res = await t.signInAs(c, 'bob');
    expect(res.headers.get('location') ?? '').not.toBe('/');
    expect(await c.session()).toBeNull();
  });

  it('an existing member keeps their role when the IdP later puts them in a mapped group', async () => {
    const t = await setup();
    const c = t.client();
    await t.signInAs(c, 'bob');
    const bobId = (await c.session())!.user.id;
    expect((await t.members()).get(bobId)).toBe('member');
    op.accounts.set('bob', { sub: 'bob', email: 'bob@acme.test', email_verified: true, groups: ['acme-admins'] });
    try {
      await t.signInAs(t.client(), 'bob');
      expect((await t.members()).get(bobId)).toBe('member');
    } finally {
      op.accounts.set('bob', { sub: 'bob', email: 'bob@acme.test', email_verified: true });
    }
  });

  it('an admin cannot register a provider whose role mapping grants a role above their own (owner)', async () => {
    const t = await setup();
    // Bob becomes an admin of Acme.
    const bob = t.client();
    await t.signInAs(bob, 'bob');
    const bobId = (await bob.session())!.user.id;
    const promote = { organizationId: t.acme, userId: bobId, role: 'admin' };
    expect((await t.owner.postJson('/auth/org/members/set-role', promote)).status).toBe(200);
    for (const body of <Record<string, string>[]>[
      { providerId: 'mine', roleValues: 'anyone=owner' },
      { providerId: 'mine', roleValues: '{"anyone":"owner"}' },
      { providerId: 'mine', roleAttribute: '', roleValues: '', defaultRole: 'owner' },
    ]) {
      const res = await t.register(bob, body);
      expect(await codeOf(res), JSON.stringify(body)).toEqual([403, 'FORBIDDEN']);
    }
    expect(await t.storage.getProvider('mine')).toBeNull();
    // Admin and below is theirs to map; an owner may map owner.
    expect((await t.register(bob, { providerId: 'mine', roleValues: 'x=admin' })).status).toBe(200);
    expect((await t.register(t.owner, { providerId: 'owners', roleValues: 'x=owner' })).status).toBe(200);
  });

  it('a role mapping value that is not an organization role is refused at registration', async () => {
    const t = await setup();
    for (const roleValues of ['x=superuser', 'x=Owner', 'x=own\u200ber', '{"x":["admin"]}', '{"x":null}']) {
      const res = await t.register(t.owner, { providerId: 'bad', roleValues });
      expect(await codeOf(res), roleValues).toEqual([400, 'SSO_PROVIDER_INVALID']);
    }
  });
});

describe('sso() OIDC callback under attack', () => {
  it('a callback is used once: replayed, it signs no one in', async () => {
    const t = await setup();
    const c = t.client();
    const url = await t.through(c, 'alice', { providerId: 'acme' });
    const cookies = c.cookieHeader(); // the flow cookie, as an attacker who copied it would hold it
    expect((await c.request(url, { headers: { accept: 'text/html' } })).status).toBe(303);
    expect((await c.session())?.user.email).toBe('alice@acme.test');
    const replay = t.client();
    const res = await replay.request(url, { headers: { accept: 'text/html', cookie: cookies } });
    expect(res.headers.get('location') ?? '').toContain('error=');
    expect(await replay.session()).toBeNull();
  });

  it('a callback for one provider delivered at another provider’s path is refused', async () => {
    const t = await setup();
    expect((await t.register(t.owner, { providerId: 'other', domain: '' })).status).toBe(200);
    const c = t.client();
    const url = new URL(await t.through(c, 'alice', { providerId: 'acme' }), ORIGIN);
    const res = await c.request(`/auth/sso/callback/other${url.search}`, { headers: { accept: 'text/html' } });
    expect(res.headers.get('location') ?? '').toContain('error=');
    expect(await c.session()).toBeNull();
    // And a provider that does not exist, or is not OIDC, is 404.
    expect((await c.request(`/auth/sso/callback/nope${url.search}`)).status).toBe(404);
  });

  it('never redirects off the app after sign-in, whatever the callbackUrl', async () => {
    const t = await setup();
    for (const callbackUrl of [
      '//evil.test/x',
      '/\\evil.test',
      '\\/evil.test',
      'https:evil.test',
      'https://evil.test',
      '%2F%2Fevil.test',
      '/%2F/evil.test',
      'javascript:alert(1)',
      ' //evil.test',
    ]) {
      const c = t.client();
      const res = await t.signInAs(c, 'alice', { providerId: 'acme', callbackUrl });
      const location = res.headers.get('location')!;
      const target = new URL(location, ORIGIN);
      expect(target.origin, `${callbackUrl} → ${location}`).toBe(ORIGIN);
      expect(location.startsWith('//') || location.startsWith('/\\'), location).toBe(false);
    }
  });
});

describe('sso() OIDC discovery under attack', () => {
  it('an issuer whose discovery document names another issuer never sends anyone anywhere (502, stable code)', async () => {
    const t = await setup();
    // A server at another address that hands out the real OP's document (whose `issuer` is the OP's own).
    const document = await (await fetch(`${op.issuer}/.well-known/openid-configuration`)).text();
    let served = 0;
    const mixup = createServer((req, res) => {
      served++;
      res.writeHead(req.url === '/.well-known/openid-configuration' ? 200 : 404, {
        'content-type': 'application/json',
      });
      res.end(document);
    });
    await new Promise<void>((resolve) => mixup.listen(0, '127.0.0.1', resolve));
    try {
      const issuer = `http://127.0.0.1:${(mixup.address() as AddressInfo).port}`;
      expect((await t.register(t.owner, { providerId: 'mixup', domain: '', issuer })).status).toBe(200);
      const res = await t.client().postJson('/auth/sso/sign-in', { providerId: 'mixup' });
      expect([res.status, (await json(res)).error?.code]).toEqual([502, 'OAUTH_SIGNIN_ERROR']);
      expect(served).toBeGreaterThan(0);
    } finally {
      await new Promise((resolve) => mixup.close(resolve));
    }
  });
});

describe('sso() management under attack', () => {
  it('a member cannot verify a domain, and an owner of another organization reaches none of Acme’s records', async () => {
    const t = await setup();
    const bob = t.client();
    await t.signInAs(bob, 'bob');
    const verify = await bob.postJson('/auth/sso/domains/verify', { organizationId: t.acme, domain: 'acme.test' });
    expect(verify.status).toBe(403);
    for (const path of ['providers', 'domains', 'manage']) {
      const res = await bob.request(`/auth/sso/${path}?organizationId=${t.acme}`, { headers: { accept: 'text/html' } });
      expect(res.status, path).toBe(403);
      expect(await res.text(), path).not.toContain('acme.test');
    }
    // Beta's owner names Acme's provider or domain with Beta's organization id: not found.
    const del = await t.betaOwner.postJson('/auth/sso/providers/delete', {
      organizationId: t.beta,
      providerId: 'acme',
    });
    expect(await codeOf(del)).toEqual([404, 'SSO_PROVIDER_NOT_FOUND']);
    const v = await t.betaOwner.postJson('/auth/sso/domains/verify', { organizationId: t.beta, domain: 'acme.test' });
    expect(await codeOf(v)).toEqual([404, 'SSO_DOMAIN_NOT_CLAIMED']);
    expect(await t.storage.getProvider('acme')).not.toBeNull();
  });

  it('shows what a manager typed, and what a link carries, escaped on the pages', async () => {
    const t = await setup();
    const xss = '<img src=x onerror=alert(1)>';
    expect((await t.register(t.owner, { providerId: 'xss', name: `Acme ${xss}`, domain: '' })).status).toBe(200);
    const manage = await (
      await t.owner.request(`/auth/sso/manage?organizationId=${t.acme}`, { headers: { accept: 'text/html' } })
    ).text();
    expect(manage).toContain('Acme &lt;img');
    expect(manage).not.toContain(xss);
    const signIn = await (
      await t.client().request(`/auth/sso/sign-in?callbackUrl=${encodeURIComponent(`/x"><script>alert(1)</script>`)}`, {
        headers: { accept: 'text/html' },
      })
    ).text();
    expect(signIn).not.toContain('<script>alert(1)');
    const refused = await t
      .client()
      .postForm('/auth/sso/sign-in', { email: `${xss}@nowhere.test`, callbackUrl: `/"${xss}` });
    expect(refused.status).toBe(404);
    expect(await refused.text()).not.toContain(xss);
  });

  it('answers fields of the wrong JSON type as a refusal, never a server error', async () => {
    const t = await setup();
    for (const body of [
      { email: ['alice@acme.test'] },
      { email: { toString: 'alice@acme.test' } },
      { providerId: ['acme'] },
      { providerId: 1 },
      { organizationSlug: { $ne: null } },
      { email: null },
    ]) {
      const res = await t.client().postJson('/auth/sso/sign-in', body);
      expect(res.status, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expect(res.status, JSON.stringify(body)).toBeLessThan(500);
    }
    for (const domain of [['acme.test'], { a: 1 }, 42]) {
      const res = await t.owner.postJson('/auth/sso/domains/claim', { organizationId: t.acme, domain });
      expect(res.status, JSON.stringify(domain)).toBe(400);
    }
  });

  it('refuses every state-changing POST without a CSRF token (the ACS aside), changing nothing', async () => {
    const t = await setup();
    const posts: Array<[string, Record<string, string>]> = [
      ['/auth/sso/sign-in', { email: 'alice@acme.test' }],
      [
        '/auth/sso/providers/register',
        { organizationId: t.acme, providerId: 'csrf', issuer: op.issuer, ...STRICT_CLIENTS.plain },
      ],
      ['/auth/sso/providers/delete', { organizationId: t.acme, providerId: 'acme' }],
      ['/auth/sso/domains/claim', { organizationId: t.acme, domain: 'csrf.test' }],
      ['/auth/sso/domains/verify', { organizationId: t.acme, domain: 'acme.test' }],
    ];
    for (const [path, body] of posts) {
      for (const type of ['application/x-www-form-urlencoded', 'application/json']) {
        const res = await t.owner.request(path, {
          method: 'POST',
          headers: { 'content-type': type, accept: 'application/json', origin: 'https://evil.test' },
          body: type === 'application/json' ? JSON.stringify(body) : new URLSearchParams(body).toString(),
        });
        expect(res.status, `${path} ${type}`).toBe(403);
      }
    }
    expect(await t.storage.getProvider('csrf')).toBeNull();
    expect(await t.storage.getProvider('acme')).not.toBeNull();
    expect(await t.storage.getDomain('csrf.test', t.acme)).toBeNull();
  });

  it('never shows or logs a client secret or a domain token', async () => {
    const t = await setup();
    const secret = STRICT_CLIENTS.plain.clientSecret;
    const claim = await json(
      await t.owner.postJson('/auth/sso/domains/claim', { organizationId: t.acme, domain: 'x.acme.test' }),
    );
    const c = t.client();
    await t.signInAs(c, 'alice');
    await t.signInAs(t.client(), 'mallory');
    const seen = [
      await (await t.owner.request(`/auth/sso/providers?organizationId=${t.acme}`)).text(),
      await (await t.owner.request(`/auth/sso/domains?organizationId=${t.acme}`)).text(),
      await (
        await t.owner.request(`/auth/sso/manage?organizationId=${t.acme}`, { headers: { accept: 'text/html' } })
      ).text(),
      JSON.stringify(await t.storage.listDomains(t.acme)),
      ...t.logs,
    ].join('\n');
    expect(seen).toContain('Acme IdP');
    expect(seen).not.toContain(secret);
    expect(seen).not.toContain(claim.txtValue);
  });
});

describe('sso() provider updates (POST /sso/providers/update)', () => {
  const update = (c: TestClient, body: Record<string, string>, organizationId?: string) =>
    c.postJson('/auth/sso/providers/update', {
      providerId: 'acme',
      ...(organizationId ? { organizationId } : {}),
      ...body,
    });

  it('changes what is given and keeps the rest (the client secret when left empty); sign-in still works', async () => {
    const t = await setup();
    const before = (await t.storage.getProvider('acme'))!;
    const res = await update(t.owner, {
      organizationId: t.acme,
      name: 'Acme Okta',
      scope: 'openid email profile',
      clientSecret: '',
    });
    expect(res.status).toBe(200);
    const answer = await json(res);
    expect(answer.provider).toMatchObject({
      name: 'Acme Okta',
      oidc: { issuer: op.issuer, scope: 'openid email profile' },
    });
    const after = (await t.storage.getProvider('acme'))!;
    expect(after).toMatchObject({
      name: 'Acme Okta',
      domain: 'acme.test',
      createdAt: before.createdAt,
      roleMapping: before.roleMapping,
    });
    expect(after.oidc!.clientSecret).toBe(before.oidc!.clientSecret);
    expect(JSON.stringify(answer)).not.toContain(after.oidc!.clientSecret);
    const c = t.client();
    expect((await t.signInAs(c, 'alice')).status).toBe(303);
    expect((await c.session())?.user.email).toBe('alice@acme.test');
    // A new secret is sealed again; the type and the id cannot change.
    expect((await update(t.owner, { organizationId: t.acme, clientSecret: 'rotated' })).status).toBe(200);
    expect((await t.storage.getProvider('acme'))!.oidc!.clientSecret).not.toBe(before.oidc!.clientSecret);
    expect(await codeOf(await update(t.owner, { organizationId: t.acme, type: 'saml' }))).toEqual([
      400,
      'SSO_PROVIDER_INVALID',
    ]);
  });

  it('refuses another organization’s provider, and people who do not manage its organization', async () => {
    const t = await setup();
    const before = await t.storage.getProvider('acme');
    // Beta's owner names Acme's provider under Beta: not found; under Acme: not a manager there.
    expect(await codeOf(await update(t.betaOwner, { organizationId: t.beta, name: 'Pwned' }))).toEqual([
      404,
      'SSO_PROVIDER_NOT_FOUND',
    ]);
    expect((await update(t.betaOwner, { organizationId: t.acme, name: 'Pwned' })).status).toBeGreaterThanOrEqual(403);
    const member = t.client();
    await t.signInAs(member, 'bob');
    expect((await update(member, { organizationId: t.acme, name: 'Pwned' })).status).toBe(403);
    expect(await t.storage.getProvider('acme')).toStrictEqual(before);
  });

  it('an admin cannot repoint a provider whose mapping grants owner, nor map owner themselves', async () => {
    const t = await setup();
    expect((await update(t.owner, { organizationId: t.acme, roleValues: 'acme-owners=owner' })).status).toBe(200);
    const bob = t.client();
    await t.signInAs(bob, 'bob');
    const bobId = (await bob.session())!.user.id;
    const promote = { organizationId: t.acme, userId: bobId, role: 'admin' };
    expect((await t.owner.postJson('/auth/org/members/set-role', promote)).status).toBe(200);
    const before = await t.storage.getProvider('acme');
    for (const body of <Record<string, string>[]>[
      { issuer: 'http://127.0.0.1:1/bob-idp', clientSecret: 'bobs' },
      { name: 'Renamed' },
      { roleValues: 'x=owner' },
      { roleValues: '', roleAttribute: '', defaultRole: 'owner' },
    ])
      expect(await codeOf(await update(bob, { organizationId: t.acme, ...body })), JSON.stringify(body)).toEqual([
        403,
        'FORBIDDEN',
      ]);
    expect(await t.storage.getProvider('acme')).toStrictEqual(before);
    // Replacing the mapping with one within their role is theirs to do.
    expect((await update(bob, { organizationId: t.acme, roleValues: 'acme-admins=admin' })).status).toBe(200);
  });

  it('the manage page shows each provider’s form filled in (no secret) and updates without JavaScript', async () => {
    const t = await setup();
    const page = await (await t.owner.request(`/auth/sso/manage?organizationId=${t.acme}`)).text();
    expect(page).toContain('action="/auth/sso/providers/update"');
    expect(page).toContain(`value="${op.issuer}"`);
    expect(page).toContain('acme-admins=admin</textarea>');
    const sealed = (await t.storage.getProvider('acme'))!.oidc!.clientSecret;
    expect(page).not.toContain(sealed);
    expect(page).not.toContain(STRICT_CLIENTS.plain.clientSecret);
    const res = await t.owner.postForm('/auth/sso/providers/update', {
      organizationId: t.acme,
      providerId: 'acme',
      name: 'Acme <Renamed>',
      issuer: op.issuer,
      clientId: STRICT_CLIENTS.plain.clientId,
      clientSecret: '',
      domain: 'acme.test',
      roleAttribute: 'groups',
      roleValues: 'acme-admins=admin\nacme-members=member',
    });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('Acme &lt;Renamed&gt; is updated');
    expect((await t.storage.getProvider('acme'))!).toMatchObject({
      name: 'Acme <Renamed>',
      roleMapping: { values: { 'acme-admins': 'admin', 'acme-members': 'member' } },
    });
    expect((await t.storage.getProvider('acme'))!.oidc!.clientSecret).toBe(sealed);
  });
});
