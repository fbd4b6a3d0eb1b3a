/**
 * `sso()` with SAML 2.0, end to end through the routes: a test IdP (signing with a throwaway key, built from the
 * same XML signature library the SAML module verifies with) answers the app's AuthnRequest; the ACS signs the
 * person in, creates the membership with the mapped role, and refuses a replayed assertion through the plugin's
 * own storage, a response posted into another browser, and unsolicited responses unless allowed.
 */
import { generateKeyPairSync, verify } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { ORIGIN, makeFixture, type TestClient } from '../../testing/fixtures.js';
import { organizations } from '../organizations/index.js';
import { sso } from './index.js';
import { createTestIdp, derBase64, makeTestKey, type TestKey } from './saml/saml-test-support.js';
import type { SamlSpKeys } from './saml/types.js';

const PROVIDER = 'acme-saml';
let key: TestKey;
beforeAll(async () => {
  key = await makeTestKey();
});

const json = async (res: Response) => (await res.json()) as Record<string, any>;

async function setup(options: { allowIdpInitiated?: boolean; samlKeys?: SamlSpKeys } = {}) {
  const warnings: string[] = [];
  const orgs = organizations({ sendInvitation: () => {} });
  const txt = new Map<string, string[][]>();
  const f = await makeFixture('database', {
    logger: { error: (m) => warnings.push(m), warn: (m) => warnings.push(m) },
    plugins: [orgs, sso({ organizations: orgs, resolveTxt: async (name) => txt.get(name) ?? [], ...options })],
  });
  await f.auth.migrate();
  const client = () => Object.assign(f.client(), { ip: '203.0.113.9' });
  const owner = client();
  expect((await owner.signIn()).status).toBe(200);
  const organizationId = (await json(await owner.postJson('/auth/org/create', { name: 'Acme', slug: 'acme' })))
    .organization.id as string;
  const idp = createTestIdp({
    spEntityId: `${ORIGIN}/auth/sso/saml/metadata/${PROVIDER}`,
    acsUrl: `${ORIGIN}/auth/sso/saml/acs/${PROVIDER}`,
    now: () => Date.now(),
    key,
  });
  const registered = await owner.postJson('/auth/sso/providers/register', {
    organizationId,
    type: 'saml',
    providerId: PROVIDER,
    name: 'Acme SAML',
    entityId: idp.entityId,
    ssoUrl: idp.ssoUrl,
    certificate: key.certificate,
    domain: 'acme.test',
    roleAttribute: 'role',
    roleValues: 'admin=admin',
  });
  expect(registered.status).toBe(200);
  const claim = await json(await owner.postJson('/auth/sso/domains/claim', { organizationId, domain: 'acme.test' }));
  txt.set(claim.txtName, [[claim.txtValue]]);
  expect((await owner.postJson('/auth/sso/domains/verify', { organizationId, domain: 'acme.test' })).status).toBe(200);

  /** Starts at `POST /sso/sign-in`: the AuthnRequest's id and the RelayState sent with it. */
  const start = async (c: TestClient, email = 'grace@acme.test') => {
    const res = await c.postForm('/auth/sso/sign-in', { email, callbackUrl: '/home' });
    expect(res.status).toBe(303);
    const url = new URL(res.headers.get('location')!);
    expect(url.origin + url.pathname).toBe(idp.ssoUrl);
    const request = inflateRawSync(Buffer.from(url.searchParams.get('SAMLRequest')!, 'base64')).toString('utf8');
    return { requestId: /\sID="([^"]+)"/.exec(request)![1]!, relayState: url.searchParams.get('RelayState')! };
  };
  const post = (c: TestClient, body: Record<string, string>) =>
    c.request(`/auth/sso/saml/acs/${PROVIDER}`, {
      method: 'POST',
      // The IdP's auto-submitted form: a cross-site POST without our CSRF token.
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'text/html',
        origin: 'https://idp.test.example',
      },
      body: new URLSearchParams(body).toString(),
    });
  const grace = { nameId: 'grace@acme.test', attributes: { role: ['admin'], displayName: ['Grace Hopper'] } };
  const roleOf = async (userId: string) => {
    const res = await owner.request(`/auth/org/members?organizationId=${organizationId}`);
    return ((await json(res)).members as Array<{ userId: string; role: string }>).find((m) => m.userId === userId)
      ?.role;
  };
  return { ...f, client, owner, organizationId, idp, start, post, grace, roleOf, warnings };
}

describe('sso() with SAML', () => {
  it('serves the SP metadata with the entity id and the ACS URL', async () => {
    const t = await setup();
    const res = await t.client().request(`/auth/sso/saml/metadata/${PROVIDER}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/samlmetadata+xml');
    const xml = await res.text();
    expect(xml).toContain(`entityID="${ORIGIN}/auth/sso/saml/metadata/${PROVIDER}"`);
    expect(xml).toContain(`Location="${ORIGIN}/auth/sso/saml/acs/${PROVIDER}"`);
    expect((await t.client().request('/auth/sso/saml/metadata/nope')).status).toBe(404);
  });

  it('signs in through the ACS: a new user, a member with the mapped role, then back to the callbackUrl', async () => {
    const t = await setup();
    const c = t.client();
    const { requestId, relayState } = await t.start(c);
    const res = await t.post(c, {
      SAMLResponse: t.idp.respond(requestId, { assertion: t.grace }),
      RelayState: relayState,
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/home');
    const session = await c.session();
    expect(session?.user).toMatchObject({ email: 'grace@acme.test', name: 'Grace Hopper' });
    expect((await t.adapter.getUser(session!.user.id))?.emailVerified).toBeInstanceOf(Date);
    expect(await t.roleOf(session!.user.id)).toBe('admin');

    // The next sign-in finds the same user through the account.
    const again = t.client();
    const next = await t.start(again);
    await t.post(again, {
      SAMLResponse: t.idp.respond(next.requestId, { assertion: { ...t.grace, attributes: {} } }),
      RelayState: next.relayState,
    });
    expect((await again.session())?.user.id).toBe(session!.user.id);
    expect(await t.roleOf(session!.user.id)).toBe('admin');
  });

  it('refuses an answer posted into another browser, or with another RelayState', async () => {
    const t = await setup();
    const attacker = t.client();
    const { requestId, relayState } = await t.start(attacker);
    const SAMLResponse = t.idp.respond(requestId, { assertion: t.grace });
    const victim = t.client();
    const res = await t.post(victim, { SAMLResponse, RelayState: relayState });
    expect(res.status).toBe(400);
    expect(await victim.session()).toBeNull();
    const other = await t.start(attacker);
    const wrongRelay = await t.post(attacker, {
      SAMLResponse: t.idp.respond(other.requestId, { assertion: t.grace }),
      RelayState: 'another-value',
    });
    expect(wrongRelay.status).toBe(400);
    expect(await attacker.session()).toBeNull();
  });

  it('refuses unsolicited responses by default', async () => {
    const t = await setup();
    const c = t.client();
    const res = await t.post(c, { SAMLResponse: t.idp.respond(null, { assertion: t.grace }) });
    expect(res.status).toBe(400);
    expect(await c.session()).toBeNull();
    expect(t.warnings.some((w) => w.includes('SAML_IDP_INITIATED_DISABLED'))).toBe(true);
  });

  it('with allowIdpInitiated, accepts an unsolicited response once: the replay is refused by the stored assertion id', async () => {
    const t = await setup({ allowIdpInitiated: true });
    const SAMLResponse = t.idp.respond(null, { assertion: t.grace });
    const first = t.client();
    expect((await t.post(first, { SAMLResponse })).status).toBe(303);
    expect((await first.session())?.user.email).toBe('grace@acme.test');
    const replay = t.client();
    const res = await t.post(replay, { SAMLResponse });
    expect(res.status).toBe(400);
    expect(await replay.session()).toBeNull();
    expect(t.warnings.some((w) => w.includes('SAML_REPLAYED'))).toBe(true);
  });
});

describe('sso() memberships after a domain or a provider goes (they stay, as in Okta and better-auth)', () => {
  it('keeps the member and their role when the domain is unverified and the provider deleted; a manager removes them', async () => {
    const t = await setup();
    const c = t.client();
    const first = await t.start(c);
    await t.post(c, {
      SAMLResponse: t.idp.respond(first.requestId, { assertion: t.grace }),
      RelayState: first.relayState,
    });
    const userId = (await c.session())!.user.id;
    expect(await t.roleOf(userId)).toBe('admin');

    // Claiming the domain again makes it unverified: it routes no one any more, and the membership stays.
    const reclaimed = await t.owner.postJson('/auth/sso/domains/claim', {
      organizationId: t.organizationId,
      domain: 'acme.test',
    });
    expect(reclaimed.status).toBe(200);
    const routed = await t.client().postJson('/auth/sso/sign-in', { email: 'grace@acme.test' });
    expect([routed.status, (await json(routed)).error?.code]).toEqual([404, 'SSO_NO_PROVIDER']);
    expect(await t.roleOf(userId)).toBe('admin');

    // Deleting the provider leaves the membership, the person's session and their account as they are.
    const deleted = await t.owner.postJson('/auth/sso/providers/delete', {
      organizationId: t.organizationId,
      providerId: PROVIDER,
    });
    expect(deleted.status).toBe(200);
    expect(await t.roleOf(userId)).toBe('admin');
    expect((await c.session())?.user.id).toBe(userId);
    const accounts = await t.adapter.listAccounts!(userId);
    expect(accounts.some((a) => a.provider.startsWith(`sso-${PROVIDER}-`))).toBe(true);

    // Off-boarding is the organization's own step: a manager removes the member.
    const removed = await t.owner.postJson('/auth/org/members/remove', { organizationId: t.organizationId, userId });
    expect(removed.status).toBe(200);
    expect(await t.roleOf(userId)).toBeUndefined();
  });
});

describe('sso() SAML with the SP’s own keys: signed AuthnRequests, encrypted assertions', () => {
  let signing: TestKey;
  let encryption: TestKey;
  beforeAll(async () => {
    signing = await makeTestKey();
    encryption = await makeTestKey();
  });
  const keys = (): SamlSpKeys => ({ signing, encryption });
  const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';

  /** The text of the SP metadata's `KeyDescriptor` for `use`, whitespace removed ('' when there is none). */
  const keyDescriptor = (xml: string, use: string) =>
    (xml.split('<KeyDescriptor').find((part) => part.startsWith(` use="${use}"`)) ?? '')
      .split('</KeyDescriptor>')[0]!
      .replace(/\s+/g, '');
  /** The query of the IdP redirect as sent (raw, still URL-encoded), by name. */
  const rawQuery = (location: string) =>
    new Map(
      new URL(location).search
        .slice(1)
        .split('&')
        .map((pair) => pair.split('=', 2) as [string, string]),
    );
  /** What the IdP checks (Bindings §3.4.4.1): the signature over `SAMLRequest=…&RelayState=…&SigAlg=…` as sent. */
  const signatureHolds = (raw: Map<string, string>, certificate: string) =>
    verify(
      'sha256',
      Buffer.from(['SAMLRequest', 'RelayState', 'SigAlg'].map((name) => `${name}=${raw.get(name)}`).join('&')),
      certificate,
      Buffer.from(decodeURIComponent(raw.get('Signature') ?? ''), 'base64'),
    );

  it('publishes both certificates in the SP metadata and signs every AuthnRequest with the signing key', async () => {
    const t = await setup({ samlKeys: keys() });
    const xml = await (await t.client().request(`/auth/sso/saml/metadata/${PROVIDER}`)).text();
    expect(xml).toContain('AuthnRequestsSigned="true"');
    expect(keyDescriptor(xml, 'signing')).toContain(derBase64(signing.certificate));
    expect(keyDescriptor(xml, 'encryption')).toContain(derBase64(encryption.certificate));

    const res = await t.client().postForm('/auth/sso/sign-in', { email: 'grace@acme.test', callbackUrl: '/home' });
    expect(res.status).toBe(303);
    const raw = rawQuery(res.headers.get('location')!);
    expect(decodeURIComponent(raw.get('SigAlg')!)).toBe(RSA_SHA256);
    expect(signatureHolds(raw, signing.certificate)).toBe(true);
    // Forged on the way: another RelayState, or checked against another key, does not verify.
    expect(signatureHolds(new Map(raw).set('RelayState', 'forged'), signing.certificate)).toBe(false);
    expect(signatureHolds(raw, encryption.certificate)).toBe(false);
  });

  it('signs in with an assertion encrypted to the SP, and refuses one encrypted to another key', async () => {
    const t = await setup({ samlKeys: keys() });
    const c = t.client();
    const { requestId, relayState } = await t.start(c);
    const SAMLResponse = t.idp.respond(requestId, { assertion: t.grace, encryptTo: encryption.certificate });
    expect(Buffer.from(SAMLResponse, 'base64').toString('utf8')).not.toContain('grace@acme.test');
    const res = await t.post(c, { SAMLResponse, RelayState: relayState });
    expect(res.status).toBe(303);
    expect((await c.session())?.user.email).toBe('grace@acme.test');
    // Replayed, the decrypted assertion is still one assertion id: refused.
    const replay = t.client();
    const again = await t.start(replay);
    expect((await t.post(replay, { SAMLResponse, RelayState: again.relayState })).status).toBe(400);

    const other = t.client();
    const next = await t.start(other);
    const wrongKey = t.idp.respond(next.requestId, { assertion: t.grace, encryptTo: signing.certificate });
    expect((await t.post(other, { SAMLResponse: wrongKey, RelayState: next.relayState })).status).toBe(400);
    expect(await other.session()).toBeNull();
  });

  it('an encrypted assertion must still be signed by the IdP inside', async () => {
    const t = await setup({ samlKeys: keys() });
    const c = t.client();
    const { requestId, relayState } = await t.start(c);
    const forged = await makeTestKey();
    const parts = t.idp.assertionParts(requestId, t.grace);
    const { encryptAssertion, encode, responseXml } = await import('./saml/saml-test-support.js');
    const assertion = encryptAssertion(t.idp.signedAssertion(parts, forged), encryption.certificate);
    const SAMLResponse = encode(responseXml(t.idp.responseParts(requestId), [assertion]));
    expect((await t.post(c, { SAMLResponse, RelayState: relayState })).status).toBe(400);
    expect(await c.session()).toBeNull();
    expect(t.warnings.some((w) => w.includes('SAML_SIGNATURE_INVALID'))).toBe(true);
  });

  it('refuses AES-CBC encrypted assertions before decrypting, and advertises only AES-GCM', async () => {
    const t = await setup({ samlKeys: keys() });
    const xml = await (await t.client().request(`/auth/sso/saml/metadata/${PROVIDER}`)).text();
    expect(xml).toContain('xmlenc11#aes256-gcm');
    expect(xml).not.toContain('-cbc');
    const c = t.client();
    const { requestId, relayState } = await t.start(c);
    const { encryptAssertion, encode, responseXml } = await import('./saml/saml-test-support.js');
    const parts = t.idp.assertionParts(requestId, t.grace);
    const cbc = encryptAssertion(t.idp.signedAssertion(parts), encryption.certificate, 'aes-256-cbc');
    const SAMLResponse = encode(responseXml(t.idp.responseParts(requestId), [cbc]));
    expect((await t.post(c, { SAMLResponse, RelayState: relayState })).status).toBe(400);
    expect(await c.session()).toBeNull();
    expect(t.warnings.some((w) => w.includes('SAML_RESPONSE_INVALID'))).toBe(true);
  });

  it('with requireEncryptedAssertions, refuses a plain signed assertion', async () => {
    const t = await setup({ samlKeys: { encryption: { ...encryption, requireEncryptedAssertions: true } } });
    const c = t.client();
    const { requestId, relayState } = await t.start(c);
    const res = await t.post(c, {
      SAMLResponse: t.idp.respond(requestId, { assertion: t.grace }),
      RelayState: relayState,
    });
    expect(res.status).toBe(400);
    expect(await c.session()).toBeNull();
  });

  it('without keys: no KeyDescriptor, unsigned requests, and an encrypted assertion is refused', async () => {
    const t = await setup();
    const xml = await (await t.client().request(`/auth/sso/saml/metadata/${PROVIDER}`)).text();
    expect(xml).not.toContain('KeyDescriptor');
    expect(xml).toContain('AuthnRequestsSigned="false"');
    const c = t.client();
    const res = await c.postForm('/auth/sso/sign-in', { email: 'grace@acme.test', callbackUrl: '/home' });
    expect(rawQuery(res.headers.get('location')!).has('Signature')).toBe(false);
    const { requestId, relayState } = await t.start(c);
    const SAMLResponse = t.idp.respond(requestId, { assertion: t.grace, encryptTo: encryption.certificate });
    expect((await t.post(c, { SAMLResponse, RelayState: relayState })).status).toBe(400);
    expect(await c.session()).toBeNull();
  });

  it('refuses unusable keys at createAuth (INVALID_CONFIG)', async () => {
    const orgs = organizations({ sendInvitation: () => {} });
    const ec = generateKeyPairSync('ec', {
      namedCurve: 'P-256',
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    const attempts: SamlSpKeys[] = [
      { signing: { privateKey: signing.privateKey, certificate: encryption.certificate } },
      { encryption: { privateKey: 'not a key', certificate: encryption.certificate } },
      { signing: { privateKey: ec.privateKey, certificate: signing.certificate } },
      { signing: { ...signing, signatureAlgorithm: 'sha1' as 'sha256' } },
    ];
    for (const samlKeys of attempts)
      expect(() => sso({ organizations: orgs, samlKeys }), JSON.stringify(Object.keys(samlKeys))).toThrow(/samlKeys/);
  });
});
