/**
 * `sso()`'s issuer policy through the routes: outside local development an organization cannot make the server
 * fetch from loopback, private, link-local, unique-local, CGNAT, multicast, reserved or unspecified addresses
 * (literal, in another notation, or behind a host name), at registration or later at sign-in; domain claims are
 * capped per organization and claiming is rate-limited.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CreateAuthOptions } from '../../auth.js';
import { createFixedWindowStorage, createLoginRateLimiter } from '../../rate-limit.js';
import { ORIGIN, makeFixture } from '../../testing/fixtures.js';
import { organizations } from '../organizations/index.js';
import { sso, type SsoExtension, type SsoOptions } from './index.js';
import { issuerFetch, type LookupAddresses } from './issuer-policy.js';

const json = async (res: Response) => (await res.json()) as Record<string, any>;
/** A public unicast address (not a documentation range: `ipaddr.js` counts those as reserved). */
const PUBLIC = '93.184.215.14';

/** An auth on `baseURL` (https by default) whose DNS answers from `dns` (host name → addresses). */
async function setup(
  options: Partial<SsoOptions> = {},
  overrides: Partial<CreateAuthOptions> = {},
  baseURL = 'https://app.example.com',
) {
  const dns = new Map<string, string[]>([['idp.example.com', [PUBLIC]]]);
  const lookups: string[] = [];
  const txtLookups: string[] = [];
  const lookup: LookupAddresses = async (hostname) => {
    lookups.push(hostname);
    const addresses = dns.get(hostname);
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  const orgs = organizations({ sendInvitation: () => {} });
  const f = await makeFixture('database', {
    baseURL,
    trustedOrigins: [ORIGIN],
    plugins: [
      orgs,
      sso({ organizations: orgs, resolveTxt: async (name) => (txtLookups.push(name), []), lookup, ...options }),
    ],
    ...overrides,
  });
  await f.auth.migrate();
  const storage = (f.auth.extensions as { sso: SsoExtension }).sso.storage;
  const owner = Object.assign(f.client(), { ip: '198.51.100.7' });
  expect((await owner.signIn()).status).toBe(200);
  const created = await json(await owner.postJson('/auth/org/create', { name: 'Acme', slug: 'acme' }));
  const organizationId = created.organization.id as string;
  let n = 0;
  const register = (issuer: string) =>
    owner.postJson('/auth/sso/providers/register', {
      organizationId,
      providerId: `p${++n}`,
      name: 'Acme IdP',
      issuer,
      clientId: 'client',
      clientSecret: 'secret',
    });
  /** The status and error code of registering `issuer`. */
  const outcome = async (issuer: string) => {
    const res = await register(issuer);
    return [res.status, (await json(res)).error?.code ?? null] as const;
  };
  const claim = (domain: string) => owner.postJson('/auth/sso/domains/claim', { organizationId, domain });
  return { ...f, storage, dns, lookups, txtLookups, owner, organizationId, register, outcome, claim };
}

const REFUSED = [400, 'SSO_ISSUER_NOT_ALLOWED'] as const;
const octet = fc.integer({ min: 0, max: 255 });
const hextet = (min = 0, max = 0xffff) => fc.integer({ min, max }).map((v) => v.toString(16));
const v4 = (first: fc.Arbitrary<number>, second: fc.Arbitrary<number> = octet) =>
  fc.tuple(first, second, octet, octet).map((parts) => parts.join('.'));

/** IPv4 addresses no issuer may be on: loopback, RFC 1918, link-local, CGNAT, "this network", multicast, reserved. */
const privateV4 = fc.oneof(
  v4(fc.constant(127)),
  v4(fc.constant(10)),
  v4(fc.constant(172), fc.integer({ min: 16, max: 31 })),
  v4(fc.constant(192), fc.constant(168)),
  v4(fc.constant(169), fc.constant(254)),
  v4(fc.constant(100), fc.integer({ min: 64, max: 127 })),
  v4(fc.constant(0)),
  v4(fc.integer({ min: 224, max: 255 })),
);
/** IPv6 ones: loopback, unspecified, link-local fe80::/10, unique-local fc00::/7, multicast, IPv4-mapped private. */
const privateV6 = fc.oneof(
  fc.constant('::1'),
  fc.constant('::'),
  fc.tuple(hextet(0xfe80, 0xfebf), hextet(), hextet()).map(([a, b, c]) => `${a}::${b}:${c}`),
  fc.tuple(hextet(0xfc00, 0xfdff), hextet(), hextet()).map(([a, b, c]) => `${a}:${b}::${c}`),
  fc.tuple(hextet(0xff00, 0xffff), hextet()).map(([a, b]) => `${a}::${b}`),
  privateV4.map((address) => `::ffff:${address}`),
);

describe('sso() issuer policy with an https base URL (the default refuses private issuers)', () => {
  it('refuses every private IPv4 and IPv6 address as the issuer host (400 SSO_ISSUER_NOT_ALLOWED)', async () => {
    const t = await setup();
    await fc.assert(
      fc.asyncProperty(privateV4, async (address) => {
        expect(await t.outcome(`https://${address}/`)).toEqual(REFUSED);
      }),
      { numRuns: 40 },
    );
    await fc.assert(
      fc.asyncProperty(privateV6, async (address) => {
        expect(await t.outcome(`https://[${address}]/`)).toEqual(REFUSED);
      }),
      { numRuns: 40 },
    );
    expect((await t.storage.listProviders(t.organizationId)).length).toBe(0);
  });

  it('refuses a host name that resolves to any private address, even beside a public one', async () => {
    const t = await setup();
    await fc.assert(
      fc.asyncProperty(fc.oneof(privateV4, privateV6), async (address) => {
        t.dns.set('inside.example.com', [PUBLIC, address]);
        expect(await t.outcome('https://inside.example.com/')).toEqual(REFUSED);
      }),
      { numRuns: 40 },
    );
  });

  it('refuses the other spellings of loopback and a name whose lookup answers 10.0.0.5', async () => {
    const t = await setup();
    t.dns.set('corp.example.com', ['10.0.0.5']);
    for (const issuer of [
      'https://0x7f.1/',
      'https://2130706433/',
      'https://[::ffff:127.0.0.1]/',
      'https://localhost./',
      'https://localhost/',
      'https://api.localhost/',
      'https://169.254.169.254/latest/meta-data/',
      'https://corp.example.com/',
      // A name that does not resolve is refused too.
      'https://nowhere.example.com/',
    ])
      expect([issuer, ...(await t.outcome(issuer))]).toEqual([issuer, ...REFUSED]);
    expect(t.lookups).toContain('corp.example.com');
    // Loopback names are refused by name, whatever a resolver answers for them.
    expect(t.lookups.filter((name) => name.includes('localhost'))).toEqual([]);
  });

  it('refuses a plain http issuer, even on a public address', async () => {
    const t = await setup();
    expect(await t.outcome('http://idp.example.com/')).toEqual(REFUSED);
    expect(await t.outcome(`http://${PUBLIC}/`)).toEqual(REFUSED);
  });

  it('accepts an https issuer on a public host', async () => {
    const t = await setup();
    expect(await t.outcome('https://idp.example.com/')).toEqual([200, null]);
    expect(await t.outcome(`https://${PUBLIC}/`)).toEqual([200, null]);
    expect(t.lookups).toEqual(['idp.example.com']);
  });

  it('holds an update to the issuer rules: a private or plain http issuer is refused, nothing changed', async () => {
    const t = await setup();
    expect((await t.register('https://idp.example.com/')).status).toBe(200);
    const before = await t.storage.getProvider('p1');
    t.dns.set('inside.example.com', [PUBLIC, '10.1.2.3']);
    for (const issuer of [
      'https://10.0.0.5/',
      'https://inside.example.com/',
      'http://idp.example.com/',
      'https://[::1]/',
    ]) {
      const res = await t.owner.postJson('/auth/sso/providers/update', {
        organizationId: t.organizationId,
        providerId: 'p1',
        issuer,
      });
      expect([res.status, (await json(res)).error?.code], issuer).toEqual([...REFUSED]);
    }
    expect(await t.storage.getProvider('p1')).toStrictEqual(before);
    t.dns.set('idp2.example.com', [PUBLIC]);
    const moved = await t.owner.postJson('/auth/sso/providers/update', {
      organizationId: t.organizationId,
      providerId: 'p1',
      issuer: 'https://idp2.example.com/',
    });
    expect(moved.status).toBe(200);
    expect((await t.storage.getProvider('p1'))?.oidc?.issuer).toBe('https://idp2.example.com/');
  });

  it('refuses the sign-in when the issuer’s name points inside after registration', async () => {
    const t = await setup();
    expect((await t.register('https://idp.example.com/')).status).toBe(200);
    t.dns.set('idp.example.com', ['169.254.169.254']);
    const res = await t.client().postJson('/auth/sso/sign-in', { providerId: 'p1' });
    expect([res.status, (await json(res)).error?.code]).toEqual([...REFUSED]);
  });
});

/**
 * An identity provider on the network, as the server's `fetch` sees it: `https://idp.example.com` answers its
 * discovery document, whose token endpoint is on `tokens.example.com`; every request is recorded.
 */
function discoveryOnlyIdp() {
  const requests: Array<{ url: string; redirect: RequestRedirect | undefined }> = [];
  const issuer = 'https://idp.example.com';
  const document = {
    issuer,
    authorization_endpoint: `${issuer}/authorize`,
    token_endpoint: 'https://tokens.example.com/token',
    userinfo_endpoint: `${issuer}/userinfo`,
    jwks_uri: `${issuer}/jwks`,
    response_types_supported: ['code'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: ['RS256'],
  };
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    requests.push({ url, redirect: init?.redirect });
    if (url === `${issuer}/.well-known/openid-configuration`) return Response.json(document);
    return new Response('not here', { status: 404 });
  };
  return { issuer, requests, fetch };
}

describe('sso() issuer policy on every request of the OIDC flow', () => {
  it('refuses a token endpoint that resolves inside: the callback stops before the request, nothing written', async () => {
    const idp = discoveryOnlyIdp();
    const t = await setup({ fetch: idp.fetch });
    t.dns.set('tokens.example.com', ['10.0.0.5']);
    expect((await t.register(idp.issuer)).status).toBe(200);
    const browser = t.client();
    const start = await browser.postJson('/auth/sso/sign-in', { providerId: 'p1' });
    expect(start.status).toBe(200);
    const authorize = new URL((await json(start)).url as string);
    expect(authorize.origin).toBe(idp.issuer);
    const state = authorize.searchParams.get('state')!;

    // The browser comes back with a code; the token request is refused before it is sent.
    const callback = `/auth/sso/callback/p1?code=one-time-code&state=${state}`;
    const res = await browser.request(callback, { headers: { accept: 'application/json' } });
    expect([res.status, (await json(res)).error?.code]).toEqual([...REFUSED]);
    expect(t.lookups).toContain('tokens.example.com');
    expect(idp.requests.map((r) => r.url)).toEqual([`${idp.issuer}/.well-known/openid-configuration`]);
    // Redirects are never followed: a public endpoint cannot pass the request on to an internal one.
    expect(idp.requests.every((r) => r.redirect === 'manual')).toBe(true);
    expect(await browser.session()).toBeNull();
    expect(await t.storage.listProviders(t.organizationId)).toHaveLength(1);
    const members = await json(
      await t.owner.request(`/auth/org/members?organizationId=${t.organizationId}`, {
        headers: { accept: 'application/json' },
      }),
    );
    expect(members.members ?? members).toHaveLength(1);
  });

  it('sends a browser to the OAuth error page with the callback error code', async () => {
    const idp = discoveryOnlyIdp();
    const t = await setup({ fetch: idp.fetch });
    t.dns.set('tokens.example.com', [PUBLIC, '169.254.169.254']);
    expect((await t.register(idp.issuer)).status).toBe(200);
    const browser = t.client();
    const start = await browser.postJson('/auth/sso/sign-in', { providerId: 'p1' });
    const state = new URL((await json(start)).url as string).searchParams.get('state')!;
    const res = await browser.request(`/auth/sso/callback/p1?code=c&state=${state}`, {
      headers: { accept: 'text/html' },
    });
    expect(res.status).toBe(303);
    expect(new URL(res.headers.get('location')!, ORIGIN).searchParams.get('error')).toBe('OAuthCallbackError');
    expect(idp.requests.some((r) => r.url.startsWith('https://tokens.example.com/'))).toBe(false);
  });

  it('issuerFetch never lets a redirect be followed, whatever the caller asked for', async () => {
    const asked: Array<RequestRedirect | undefined> = [];
    const base: typeof fetch = async (_input, init) => (
      asked.push(init?.redirect),
      new Response(null, { status: 302 })
    );
    const guarded = issuerFetch({ allowPrivate: false, lookup: async () => [{ address: PUBLIC }] }, base);
    expect((await guarded('https://idp.example.com/token', { redirect: 'follow' })).status).toBe(302);
    await guarded('https://idp.example.com/jwks');
    expect(asked).toEqual(['manual', 'manual']);
  });

  it('with private issuers allowed, the endpoints are fetched as named (no check, no lookup)', async () => {
    const idp = discoveryOnlyIdp();
    const t = await setup({ fetch: idp.fetch, allowPrivateIssuers: true });
    t.dns.set('tokens.example.com', ['10.0.0.5']);
    expect((await t.register(idp.issuer)).status).toBe(200);
    const browser = t.client();
    const start = await browser.postJson('/auth/sso/sign-in', { providerId: 'p1' });
    const state = new URL((await json(start)).url as string).searchParams.get('state')!;
    await browser.request(`/auth/sso/callback/p1?code=c&state=${state}`, { headers: { accept: 'application/json' } });
    expect(idp.requests.map((r) => r.url)).toContain('https://tokens.example.com/token');
    expect(t.lookups).toEqual([]);
  });
});

describe('sso() allowPrivateIssuers', () => {
  it('defaults to allowed on an http loopback base URL (local development)', async () => {
    const t = await setup({}, {}, 'http://localhost:3000');
    expect(await t.outcome('http://127.0.0.1:9/')).toEqual([200, null]);
    expect(t.lookups).toEqual([]);
  });

  it('defaults to refused without a base URL and on a non-loopback http one', async () => {
    for (const baseURL of [undefined, 'http://app.test']) {
      const t = await setup({}, {}, baseURL);
      expect(await t.outcome('http://127.0.0.1:9/')).toEqual(REFUSED);
    }
  });

  it('honours an explicit true with an https base URL, and an explicit false on localhost', async () => {
    const allowed = await setup({ allowPrivateIssuers: true });
    expect(await allowed.outcome('https://10.0.0.5/')).toEqual([200, null]);
    expect(await allowed.outcome('http://127.0.0.1:9/')).toEqual([200, null]);
    const refused = await setup({ allowPrivateIssuers: false }, {}, 'http://localhost:3000');
    expect(await refused.outcome('http://127.0.0.1:9/')).toEqual(REFUSED);
  });
});

describe('sso() domain claims', () => {
  it('caps the claims of an organization at maxDomains (409 SSO_DOMAIN_LIMIT); a held claim is renewed', async () => {
    const t = await setup({ maxDomains: 2 });
    expect((await t.claim('one.example')).status).toBe(200);
    expect((await t.claim('two.example')).status).toBe(200);
    const third = await t.claim('three.example');
    expect([third.status, (await json(third)).error?.code]).toEqual([409, 'SSO_DOMAIN_LIMIT']);
    expect((await t.claim('two.example')).status).toBe(200);
    const held = await t.storage.listDomains(t.organizationId);
    expect(held.map((d) => d.domain).sort()).toEqual(['one.example', 'two.example']);
  });

  it('counts claims per client IP and on the login limiter (429 once it is spent)', async () => {
    const login = createLoginRateLimiter(createFixedWindowStorage(), { limit: 4, window: 600 });
    const t = await setup({}, { rateLimit: { login } });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await t.claim('acme.example')).status);
    expect(statuses).toContain(429);
    expect(statuses.slice(statuses.indexOf(429))).toEqual(statuses.slice(statuses.indexOf(429)).map(() => 429));
    expect(statuses[0]).toBe(200);
    // Verifying draws on the same budget: refused before any DNS lookup.
    const verify = await t.owner.postJson('/auth/sso/domains/verify', {
      organizationId: t.organizationId,
      domain: 'acme.example',
    });
    expect([verify.status, (await json(verify)).error?.code]).toEqual([429, 'RATE_LIMITED']);
    expect(t.txtLookups).toEqual([]);
  });
});
