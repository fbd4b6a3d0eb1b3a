/**
 * The SAML ACS of `sso()` attacked through the routes: GET and HEAD consume nothing, an oversized or garbage
 * body is refused with a stable code, a response for one provider is refused at another's ACS (and leaves the
 * first one's request unanswered), and an IdP asserting an address in another organization's proven domain signs
 * no one in and creates no one.
 */
import { inflateRawSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { passwordAccounts } from '../../../password-accounts.js';
import { ORIGIN, makeFixture, type TestClient } from '../../../testing/fixtures.js';
import { organizations } from '../../organizations/index.js';
import { sso } from '../index.js';
import { createTestIdp, makeTestKey, type TestKey } from './saml-test-support.js';

let key: TestKey;
beforeAll(async () => {
  key = await makeTestKey();
});

const json = async (res: Response) => (await res.json()) as Record<string, any>;
const acsOf = (provider: string) => `/auth/sso/saml/acs/${provider}`;

async function setup(options: { allowIdpInitiated?: boolean } = {}) {
  const orgs = organizations({ sendInvitation: () => {} });
  const txt = new Map<string, string[][]>();
  const f = await makeFixture('database', {
    plugins: [orgs, sso({ organizations: orgs, resolveTxt: async (name) => txt.get(name) ?? [], ...options })],
  });
  await f.auth.migrate();
  const client = () => Object.assign(f.client(), { ip: '203.0.113.9' });
  /** A signed-in owner of a new organization that proved `domain`, with a SAML provider `provider` of the test IdP. */
  const tenant = async (owner: TestClient, slug: string, domain: string, provider: string) => {
    const organizationId = (await json(await owner.postJson('/auth/org/create', { name: slug, slug }))).organization
      .id as string;
    const idp = createTestIdp({
      spEntityId: `${ORIGIN}/auth/sso/saml/metadata/${provider}`,
      acsUrl: `${ORIGIN}${acsOf(provider)}`,
      now: () => Date.now(),
      key,
    });
    const registered = await owner.postJson('/auth/sso/providers/register', {
      organizationId,
      type: 'saml',
      providerId: provider,
      name: provider,
      entityId: idp.entityId,
      ssoUrl: idp.ssoUrl,
      certificate: key.certificate,
      domain,
    });
    expect(registered.status).toBe(200);
    const claim = await json(await owner.postJson('/auth/sso/domains/claim', { organizationId, domain }));
    txt.set(claim.txtName, [[claim.txtValue]]);
    expect((await owner.postJson('/auth/sso/domains/verify', { organizationId, domain })).status).toBe(200);
    return { organizationId, idp };
  };
  const owner = client();
  expect((await owner.signIn()).status).toBe(200);
  const acme = await tenant(owner, 'acme', 'acme.test', 'acme-saml');
  await passwordAccounts(f.adapter).register({ email: 'owner@beta.test', password: 'beta-owner-pw-1' });
  const betaOwner = client();
  expect((await betaOwner.signIn('owner@beta.test', 'beta-owner-pw-1')).status).toBe(200);
  const beta = await tenant(betaOwner, 'beta', 'beta.test', 'beta-saml');

  /** Starts at `POST /sso/sign-in` by `email`: the AuthnRequest's id and the RelayState sent with it. */
  const start = async (c: TestClient, email: string) => {
    const res = await c.postForm('/auth/sso/sign-in', { email, callbackUrl: '/home' });
    expect(res.status).toBe(303);
    const url = new URL(res.headers.get('location')!);
    const request = inflateRawSync(Buffer.from(url.searchParams.get('SAMLRequest')!, 'base64')).toString('utf8');
    return { requestId: /\sID="([^"]+)"/.exec(request)![1]!, relayState: url.searchParams.get('RelayState')! };
  };
  /** The IdP's auto-submitted form: a cross-site POST without our CSRF token. */
  const post = (c: TestClient, provider: string, body: string, accept = 'application/json') =>
    c.request(acsOf(provider), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept, origin: 'https://idp.test.example' },
      body,
    });
  const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
  return { ...f, client, owner, acme, beta, start, post, form };
}

describe('sso() SAML ACS under attack', () => {
  it('GET and HEAD on the ACS answer 405 and consume nothing: the same response still signs in by POST', async () => {
    const t = await setup();
    const c = t.client();
    const { requestId, relayState } = await t.start(c, 'grace@acme.test');
    const SAMLResponse = t.acme.idp.respond(requestId, { assertion: { nameId: 'grace@acme.test', attributes: {} } });
    const query = `?${t.form({ SAMLResponse, RelayState: relayState })}`;
    for (const method of ['GET', 'HEAD']) {
      const res = await c.request(`${acsOf('acme-saml')}${query}`, { method });
      expect(res.status, method).toBe(405);
    }
    expect(await c.session()).toBeNull();
    const res = await t.post(c, 'acme-saml', t.form({ SAMLResponse, RelayState: relayState }), 'text/html');
    expect([res.status, res.headers.get('location')]).toEqual([303, '/home']);
    expect((await c.session())?.user.email).toBe('grace@acme.test');
  });

  it('refuses an oversized body with 413 PAYLOAD_TOO_LARGE before reading it as SAML', async () => {
    const t = await setup();
    const res = await t.post(t.client(), 'acme-saml', t.form({ SAMLResponse: 'A'.repeat(256 * 1024) }));
    expect([res.status, (await json(res)).error?.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
  });

  it('refuses garbage with 400 SSO_SAML_REJECTED, echoing none of it', async () => {
    const t = await setup();
    for (const SAMLResponse of [
      '%%%not base64%%%',
      Buffer.from('<not-saml>&xxe;</not-saml>').toString('base64'),
      Buffer.from('\u0000\u0001\u0002').toString('base64'),
      '',
    ]) {
      const res = await t.post(t.client(), 'acme-saml', t.form({ SAMLResponse, RelayState: 'x' }));
      const body = await res.text();
      expect(res.status, SAMLResponse).toBe(400);
      expect(JSON.parse(body).error.code).toBe('SSO_SAML_REJECTED');
      expect(body).not.toContain('not-saml');
    }
    const none = await t.post(t.client(), 'acme-saml', '');
    expect([none.status, (await json(none)).error?.code]).toEqual([400, 'SSO_SAML_REJECTED']);
  });

  it('refuses a response for one provider posted to another provider’s ACS, and the first one’s request stays open', async () => {
    const t = await setup();
    const c = t.client();
    const { requestId, relayState } = await t.start(c, 'grace@acme.test');
    const SAMLResponse = t.acme.idp.respond(requestId, { assertion: { nameId: 'grace@acme.test', attributes: {} } });
    const body = t.form({ SAMLResponse, RelayState: relayState });
    const wrong = await t.post(c, 'beta-saml', body);
    expect([wrong.status, (await json(wrong)).error?.code]).toEqual([400, 'SSO_SAML_REJECTED']);
    expect(await c.session()).toBeNull();
    expect((await t.post(c, 'acme-saml', body, 'text/html')).status).toBe(303);
    expect((await c.session())?.user.email).toBe('grace@acme.test');
  });

  it('an IdP-initiated RelayState never sends the browser off the app', async () => {
    const t = await setup({ allowIdpInitiated: true });
    for (const RelayState of ['//evil.test', '/\\evil.test', 'https:evil.test', 'https://evil.test/x', '/ok']) {
      const c = t.client();
      const SAMLResponse = t.acme.idp.respond(null, { assertion: { nameId: 'grace@acme.test', attributes: {} } });
      const res = await t.post(c, 'acme-saml', t.form({ SAMLResponse, RelayState }), 'text/html');
      expect(res.status, RelayState).toBe(303);
      const location = res.headers.get('location')!;
      expect(new URL(location, ORIGIN).origin, `${RelayState} → ${location}`).toBe(ORIGIN);
      expect(location.startsWith('//') || location.startsWith('/\\'), location).toBe(false);
      expect((await c.session())?.user.email).toBe('grace@acme.test');
    }
  });

  it('an IdP asserting an address in another organization’s proven domain signs no one in and creates no one', async () => {
    const t = await setup();
    const victim = await passwordAccounts(t.adapter).register({ email: 'victim@beta.test', password: 'victim-pw-123' });
    for (const nameId of ['victim@beta.test', 'new@beta.test', 'VICTIM@Beta.Test']) {
      const c = t.client();
      const { requestId, relayState } = await t.start(c, 'grace@acme.test');
      const SAMLResponse = t.acme.idp.respond(requestId, { assertion: { nameId, attributes: {} } });
      const res = await t.post(c, 'acme-saml', t.form({ SAMLResponse, RelayState: relayState }));
      expect([res.status, (await json(res)).error?.code], nameId).toEqual([409, 'OAUTH_ACCOUNT_NOT_LINKED']);
      expect(await c.session(), nameId).toBeNull();
    }
    expect(await t.adapter.getUserByEmail('new@beta.test')).toBeNull();
    expect(await t.adapter.listAccounts(victim.id)).toHaveLength(1); // the password only
  });
});
