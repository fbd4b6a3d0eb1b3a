/**
 * `sso()` SAML providers registered by `metadataUrl`: the metadata is served by a node:http server on port 0, the
 * provider registered from it signs a person in; a URL that answers 404, too much, or something other than IdP
 * metadata is refused with `SSO_PROVIDER_INVALID`, and one the issuer policy refuses with `SSO_ISSUER_NOT_ALLOWED`
 * before any request reaches the server.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inflateRawSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORIGIN, makeFixture } from '../../testing/fixtures.js';
import { organizations } from '../organizations/index.js';
import { sso } from './index.js';
import { MAX_METADATA_BYTES } from './saml-metadata-url.js';
import { createTestIdp, derBase64, makeTestKey, type TestKey } from './saml/saml-test-support.js';

const PROVIDER = 'acme-saml';
const json = async (res: Response) => (await res.json()) as Record<string, any>;
const codeOf = async (res: Response) => [res.status, (await json(res)).error?.code];

let key: TestKey;
let server: Server;
let base: string;
/** Requests the metadata server received, by path. */
const requests: string[] = [];

/** The IdP's metadata as IdPs publish it: the entity id, an HTTP-Redirect SSO endpoint and the signing key. */
function idpMetadata(entityId: string, ssoUrl: string, certificate: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#"
    entityID="${entityId}">
  <md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
    <md:KeyDescriptor use="signing">
      <ds:KeyInfo><ds:X509Data><ds:X509Certificate>${derBase64(certificate)}</ds:X509Certificate></ds:X509Data></ds:KeyInfo>
    </md:KeyDescriptor>
    <md:NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress</md:NameIDFormat>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${ssoUrl}/post"/>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${ssoUrl}"/>
  </md:IDPSSODescriptor>
</md:EntityDescriptor>`;
}

beforeAll(async () => {
  key = await makeTestKey();
  const idp = createTestIdp({ spEntityId: '', acsUrl: '', now: () => Date.now(), key });
  const metadata = idpMetadata(idp.entityId, idp.ssoUrl, key.certificate);
  server = createServer((req, res) => {
    requests.push(req.url ?? '');
    if (req.url === '/metadata') {
      // A content type the code must not rely on.
      res.writeHead(200, { 'content-type': 'text/plain' }).end(metadata);
    } else if (req.url === '/huge') {
      // Chunked, without a content-length: the cap is enforced while reading.
      res.writeHead(200, { 'content-type': 'application/samlmetadata+xml' });
      res.write(metadata.replace('</md:EntityDescriptor>', ''));
      res.write(`<!-- ${'x'.repeat(MAX_METADATA_BYTES)} -->`);
      res.end('</md:EntityDescriptor>');
    } else if (req.url === '/not-metadata') {
      res.writeHead(200, { 'content-type': 'application/xml' }).end('<html><body>Sign in to Acme</body></html>');
    } else if (req.url === '/moved') {
      res.writeHead(302, { location: '/metadata' }).end();
    } else {
      res.writeHead(404).end('not here');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function setup(options: { allowPrivateIssuers: boolean }) {
  const orgs = organizations({ sendInvitation: () => {} });
  const txt = new Map<string, string[][]>();
  const logs: string[] = [];
  const f = await makeFixture('database', {
    logger: { error: (m) => logs.push(m), warn: (m) => logs.push(m) },
    plugins: [orgs, sso({ organizations: orgs, resolveTxt: async (name) => txt.get(name) ?? [], ...options })],
  });
  await f.auth.migrate();
  const client = () => Object.assign(f.client(), { ip: '203.0.113.9' });
  const owner = client();
  expect((await owner.signIn()).status).toBe(200);
  const organizationId = (await json(await owner.postJson('/auth/org/create', { name: 'Acme', slug: 'acme' })))
    .organization.id as string;
  const register = (metadataUrl: string, extra: Record<string, string> = {}) =>
    owner.postJson('/auth/sso/providers/register', {
      organizationId,
      type: 'saml',
      providerId: PROVIDER,
      name: 'Acme SAML',
      metadataUrl,
      domain: 'acme.test',
      ...extra,
    });
  const providers = async () =>
    (await json(await owner.request(`/auth/sso/providers?organizationId=${organizationId}`))).providers as unknown[];
  return { ...f, client, owner, organizationId, register, providers, txt, logs };
}

describe('sso() SAML provider by metadata URL', () => {
  it('registers from the fetched metadata and signs a person in with it', async () => {
    const t = await setup({ allowPrivateIssuers: true });
    const idp = createTestIdp({
      spEntityId: `${ORIGIN}/auth/sso/saml/metadata/${PROVIDER}`,
      acsUrl: `${ORIGIN}/auth/sso/saml/acs/${PROVIDER}`,
      now: () => Date.now(),
      key,
    });
    const before = requests.length;
    const res = await t.register(`${base}/metadata`);
    expect(res.status).toBe(200);
    expect(requests.slice(before)).toEqual(['/metadata']);
    expect((await json(res)).provider.saml).toEqual({
      entityId: idp.entityId,
      ssoUrl: idp.ssoUrl,
      metadataUrl: `${base}/metadata`,
    });

    const claim = await json(
      await t.owner.postJson('/auth/sso/domains/claim', { organizationId: t.organizationId, domain: 'acme.test' }),
    );
    t.txt.set(claim.txtName, [[claim.txtValue]]);
    expect(
      (await t.owner.postJson('/auth/sso/domains/verify', { organizationId: t.organizationId, domain: 'acme.test' }))
        .status,
    ).toBe(200);

    const c = t.client();
    const start = await c.postForm('/auth/sso/sign-in', { email: 'grace@acme.test', callbackUrl: '/home' });
    expect(start.status).toBe(303);
    const url = new URL(start.headers.get('location')!);
    expect(url.origin + url.pathname).toBe(idp.ssoUrl);
    const request = inflateRawSync(Buffer.from(url.searchParams.get('SAMLRequest')!, 'base64')).toString('utf8');
    const requestId = /\sID="([^"]+)"/.exec(request)![1]!;
    const acs = await c.request(`/auth/sso/saml/acs/${PROVIDER}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'text/html',
        origin: 'https://idp.test.example',
      },
      body: new URLSearchParams({
        SAMLResponse: idp.respond(requestId, {
          assertion: { nameId: 'grace@acme.test', attributes: { displayName: ['Grace Hopper'] } },
        }),
        RelayState: url.searchParams.get('RelayState')!,
      }).toString(),
    });
    expect(acs.status).toBe(303);
    expect(acs.headers.get('location')).toBe('/home');
    expect((await c.session())?.user).toMatchObject({ email: 'grace@acme.test', name: 'Grace Hopper' });
    // Fetched once, at registration: signing in does not fetch again.
    expect(requests.slice(before)).toEqual(['/metadata']);
  });

  it('refuses a URL that answers 404, a redirect, too much, or something other than IdP metadata', async () => {
    const t = await setup({ allowPrivateIssuers: true });
    for (const path of ['/missing', '/moved', '/huge', '/not-metadata']) {
      const res = await t.register(`${base}${path}`);
      const body = JSON.stringify(await json(res));
      expect([res.status, JSON.parse(body).error?.code], path).toEqual([400, 'SSO_PROVIDER_INVALID']);
      // The fetched document is never echoed.
      expect(body).not.toContain('Sign in to Acme');
      expect(body).not.toContain('not here');
      expect(body).not.toContain('xxxx');
    }
    expect(t.logs.join('\n')).not.toContain('Sign in to Acme');
    expect(await t.providers()).toEqual([]);
    // Not both sources at once.
    expect(await codeOf(await t.register(`${base}/metadata`, { metadataXml: '<x/>' }))).toEqual([
      400,
      'SSO_PROVIDER_INVALID',
    ]);
  });

  it('refuses a URL the issuer policy refuses before any request is made', async () => {
    const t = await setup({ allowPrivateIssuers: false });
    const before = requests.length;
    for (const url of [`${base}/metadata`, `https://localhost:${new URL(base).port}/metadata`]) {
      expect(await codeOf(await t.register(url)), url).toEqual([400, 'SSO_ISSUER_NOT_ALLOWED']);
    }
    expect(requests.length).toBe(before);
    expect(await t.providers()).toEqual([]);
  });

  it('shows the Metadata URL input on the manage page, and registers from its form (no JavaScript)', async () => {
    const t = await setup({ allowPrivateIssuers: true });
    const page = await t.owner.request(`/auth/sso/manage?organizationId=${t.organizationId}`, {
      headers: { accept: 'text/html' },
    });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(
      '<label for="sso-saml-metadata-url">IdP metadata URL (or the XML below)</label>' +
        '<input id="sso-saml-metadata-url" name="metadataUrl" type="url"',
    );
    // The form as a browser sends it: the empty XML textarea beside the URL.
    const res = await t.owner.postForm('/auth/sso/providers/register', {
      organizationId: t.organizationId,
      type: 'saml',
      name: 'Acme SAML',
      metadataUrl: `${base}/metadata`,
      metadataXml: '',
      domain: '',
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('<p role="status">Acme SAML is registered</p>');
    expect(await t.providers()).toMatchObject([{ name: 'Acme SAML', saml: { metadataUrl: `${base}/metadata` } }]);
  });
});
