/**
 * `sso()` with SAML 2.0, end to end through the routes: a test IdP (signing with a throwaway key, built from the
 * same XML signature library the SAML module verifies with) answers the app's AuthnRequest; the ACS signs the
 * person in, creates the membership with the mapped role, and refuses a replayed assertion through the plugin's
 * own storage, a response posted into another browser, and unsolicited responses unless allowed.
 */
import { inflateRawSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { ORIGIN, makeFixture, type TestClient } from '../../testing/fixtures.js';
import { organizations } from '../organizations/index.js';
import { sso } from './index.js';
import { createTestIdp, makeTestKey, type TestKey } from './saml/saml-test-support.js';

const PROVIDER = 'acme-saml';
let key: TestKey;
beforeAll(async () => {
  key = await makeTestKey();
});

const json = async (res: Response) => (await res.json()) as Record<string, any>;

async function setup(options: { allowIdpInitiated?: boolean } = {}) {
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
