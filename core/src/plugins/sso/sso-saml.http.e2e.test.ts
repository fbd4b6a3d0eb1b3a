/**
 * `sso()` with SAML 2.0 over real HTTP: the app (`auth.handler`) and a test IdP each listen on their own node:http
 * server on port 0, and fetch with a cookie jar plays the browser. The IdP reads the HTTP-Redirect AuthnRequest
 * (namespace-aware, @xmldom/xmldom + xpath) and answers the auto-post page of the HTTP-POST binding; the browser
 * posts its form to the ACS, lands signed in as a member with the mapped role, and a replayed POST or a response
 * signed by another key is refused with nothing changed.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inflateRawSync } from 'node:zlib';
import { DOMParser } from '@xmldom/xmldom';
import * as xpath from 'xpath';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMAIL, PASSWORD, makeFixture } from '../../testing/fixtures.js';
import { Browser, serve } from '../../testing/http-server.js';
import type { Auth } from '../../auth.js';
import { organizations } from '../organizations/index.js';
import { sso } from './index.js';
import { createTestIdp, encode, makeTestKey, responseXml, type TestKey } from './saml/saml-test-support.js';

const PROVIDER = 'acme-saml';
const ACS_PATH = `/auth/sso/saml/acs/${PROVIDER}`;
const NAMESPACES = {
  samlp: 'urn:oasis:names:tc:SAML:2.0:protocol',
  saml: 'urn:oasis:names:tc:SAML:2.0:assertion',
};

const select = xpath.useNamespaces(NAMESPACES);

const json = async (res: Response) => (await res.json()) as Record<string, any>;

/** Parses `text` as `mimeType` with @xmldom/xmldom, failing on any parser error or warning. */
function parse(text: string, mimeType: 'text/xml' | 'text/html'): Document {
  const fail = (message: string): never => {
    throw new Error(`not well-formed ${mimeType}: ${message}`);
  };
  return new DOMParser({ errorHandler: { warning: fail, error: fail, fatalError: fail } }).parseFromString(
    text,
    mimeType,
  ) as unknown as Document;
}

/** Escapes text for an HTML attribute. */
const escapeHtml = (value: string): string =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The AuthnRequest the IdP read: its ID, its ACS URL, its Issuer. */
interface ReadRequest {
  id: string;
  acsUrl: string;
  issuer: string;
}

/**
 * The test IdP on its own port 0. `GET /sso` takes the HTTP-Redirect AuthnRequest of the SP it knows (its entity
 * id and ACS URL), and answers the HTTP-POST binding's auto-post page: a response to the request's ID for `person`,
 * its assertion signed by `signWith` (the registered key unless a test swaps it), and the RelayState.
 */
async function serveIdp(o: {
  idp: ReturnType<typeof createTestIdp>;
  sp: { entityId: string; acsUrl: string };
  key: TestKey;
}) {
  const state = {
    signWith: o.key,
    person: { nameId: 'grace@acme.test', attributes: { role: ['admin'], displayName: ['Grace Hopper'] } },
    requests: [] as ReadRequest[],
  };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url!, 'http://idp.invalid');
    const samlRequest = url.searchParams.get('SAMLRequest');
    if (req.method !== 'GET' || url.pathname !== '/sso' || !samlRequest) {
      res.writeHead(400).end();
      return;
    }
    let read: ReadRequest;
    try {
      const doc = parse(inflateRawSync(Buffer.from(samlRequest, 'base64')).toString('utf8'), 'text/xml');
      const value = (path: string) => select(`string(${path})`, doc as never) as string;
      read = {
        id: value('/samlp:AuthnRequest/@ID'),
        acsUrl: value('/samlp:AuthnRequest/@AssertionConsumerServiceURL'),
        issuer: value('/samlp:AuthnRequest/saml:Issuer'),
      };
    } catch {
      res.writeHead(400).end();
      return;
    }
    state.requests.push(read);
    // As an IdP does: only a known SP, and only to the ACS URL registered for it.
    if (!read.id || read.issuer !== o.sp.entityId || read.acsUrl !== o.sp.acsUrl) {
      res.writeHead(400).end();
      return;
    }
    const assertion = o.idp.signedAssertion(
      o.idp.assertionParts(read.id, { ...state.person, audience: read.issuer, recipient: read.acsUrl }),
      state.signWith,
    );
    const SAMLResponse = encode(responseXml(o.idp.responseParts(read.id, { destination: read.acsUrl }), [assertion]));
    const relayState = url.searchParams.get('RelayState');
    const fields = [
      `<input type="hidden" name="SAMLResponse" value="${escapeHtml(SAMLResponse)}"/>`,
      ...(relayState === null ? [] : [`<input type="hidden" name="RelayState" value="${escapeHtml(relayState)}"/>`]),
    ];
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
      .end(
        '<!DOCTYPE html><html><head><meta charset="utf-8"/><title>Signing in</title></head>' +
          '<body onload="document.forms[0].submit()">' +
          `<form method="post" action="${escapeHtml(read.acsUrl)}">${fields.join('')}` +
          '<noscript><button type="submit">Continue</button></noscript></form></body></html>',
      );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, state };
}

/** The one POST form of an HTML page: its action and its hidden fields (anything else refuses the page). */
function readForm(html: string): { action: string; fields: Record<string, string> } {
  const forms = parse(html, 'text/html').getElementsByTagName('form');
  expect(forms.length).toBe(1);
  const form = forms[0]!;
  expect(form.getAttribute('method')?.toLowerCase()).toBe('post');
  const fields: Record<string, string> = {};
  const inputs = form.getElementsByTagName('input');
  for (let i = 0; i < inputs.length; i++) {
    const input = inputs[i]!;
    expect(input.getAttribute('type')).toBe('hidden');
    const name = input.getAttribute('name')!;
    expect(Object.hasOwn(fields, name)).toBe(false);
    fields[name] = input.getAttribute('value') ?? '';
  }
  return { action: form.getAttribute('action')!, fields };
}

/** Closes a server and every connection it holds. */
async function close(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

describe('sso() with SAML over real HTTP servers (port 0)', () => {
  let key: TestKey;
  let otherKey: TestKey;
  let auth: Auth;
  let adapter: Awaited<ReturnType<typeof makeFixture>>['adapter'];
  let app: Awaited<ReturnType<typeof serve>>;
  let idpServer: Awaited<ReturnType<typeof serveIdp>>;
  let owner: Browser;
  let organizationId: string;
  const warnings: string[] = [];

  beforeAll(async () => {
    [key, otherKey] = await Promise.all([makeTestKey(), makeTestKey()]);
    // The app's URL is known once it listens; the kit is made after, with it.
    app = await serve({ handler: (request, options) => auth.handler(request, options) });
    const sp = { entityId: `${app.base}/auth/sso/saml/metadata/${PROVIDER}`, acsUrl: `${app.base}${ACS_PATH}` };
    const idp = createTestIdp({ spEntityId: sp.entityId, acsUrl: sp.acsUrl, now: () => Date.now(), key });
    idpServer = await serveIdp({ idp, sp, key });

    const orgs = organizations({ sendInvitation: () => {} });
    const txt = new Map<string, string[][]>();
    const f = await makeFixture('database', {
      logger: { error: (m) => warnings.push(m), warn: (m) => warnings.push(m) },
      plugins: [orgs, sso({ organizations: orgs, resolveTxt: async (name) => txt.get(name) ?? [] })],
    });
    ({ auth, adapter } = f);
    await auth.migrate();

    owner = new Browser(app.base, 'Owner Browser/1.0');
    expect((await owner.post('/auth/callback/credentials', { email: EMAIL, password: PASSWORD })).status).toBe(200);
    const created = await owner.post('/auth/org/create', { name: 'Acme', slug: 'acme' });
    expect(created.status).toBe(200);
    organizationId = (await json(created)).organization.id;
    const registered = await owner.post('/auth/sso/providers/register', {
      organizationId,
      type: 'saml',
      providerId: PROVIDER,
      name: 'Acme SAML',
      entityId: idp.entityId,
      ssoUrl: `${idpServer.base}/sso`,
      certificate: key.certificate,
      domain: 'acme.test',
      roleAttribute: 'role',
      roleValues: 'admin=admin',
    });
    expect(registered.status).toBe(200);
    const claim = await json(await owner.post('/auth/sso/domains/claim', { organizationId, domain: 'acme.test' }));
    txt.set(claim.txtName, [[claim.txtValue]]);
    expect((await owner.post('/auth/sso/domains/verify', { organizationId, domain: 'acme.test' })).status).toBe(200);
  });

  afterAll(async () => {
    await Promise.all([app && close(app.server), idpServer && close(idpServer.server)]);
  });

  /** The organization's members as `[userId, role]`, in order. */
  const members = async () => {
    const res = await owner.fetch(`/auth/org/members?organizationId=${organizationId}`, {
      headers: { accept: 'application/json' },
    });
    expect(res.status).toBe(200);
    return ((await json(res)).members as Array<{ userId: string; role: string }>).map((m) => [m.userId, m.role]);
  };

  /**
   * A person's browser from the app's SSO button to the IdP's page: `POST /sso/sign-in` (the no-JS form), follows
   * the redirect to the IdP, and reads the auto-post form the IdP answers.
   */
  async function toIdp(browser: Browser, email: string) {
    const { csrfToken } = (await (await browser.fetch('/auth/csrf')).json()) as { csrfToken: string };
    const started = await browser.fetch('/auth/sso/sign-in', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html', origin: app.base },
      body: new URLSearchParams({ csrfToken, email, callbackUrl: '/home' }).toString(),
    });
    expect(started.status).toBe(303);
    const location = new URL(started.headers.get('location')!);
    expect(location.origin + location.pathname).toBe(`${idpServer.base}/sso`);
    const page = await fetch(location, { redirect: 'manual' });
    expect(page.status).toBe(200);
    const form = readForm(await page.text());
    const action = new URL(form.action);
    expect(action.origin).toBe(app.base);
    return {
      path: action.pathname + action.search,
      fields: form.fields,
      relayState: location.searchParams.get('RelayState'),
    };
  }

  /** The browser submits the IdP's form: a cross-site POST to the ACS, its cookies from the jar. */
  const submit = (browser: Browser, form: { path: string; fields: Record<string, string> }, accept = 'text/html') =>
    browser.fetch(form.path, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept, origin: idpServer.base },
      body: new URLSearchParams(form.fields).toString(),
    });

  it('signs in through the IdP: the user is a member with the mapped role and lands on the callbackUrl', async () => {
    const browser = new Browser(app.base, 'Grace Browser/1.0');
    const form = await toIdp(browser, 'grace@acme.test');
    // The IdP read the AuthnRequest the app sent, and answers it at the app's ACS with the RelayState.
    const read = idpServer.state.requests.at(-1)!;
    const answer = parse(Buffer.from(form.fields.SAMLResponse!, 'base64').toString('utf8'), 'text/xml');
    expect(select('string(/samlp:Response/@InResponseTo)', answer as never)).toBe(read.id);
    expect(form.path).toBe(ACS_PATH);
    expect(Object.keys(form.fields).sort()).toEqual(['RelayState', 'SAMLResponse']);
    expect(form.fields.RelayState).toBe(form.relayState);

    const landed = await submit(browser, form);
    expect(landed.status).toBe(303);
    expect(landed.headers.get('location')).toBe('/home');
    expect(await browser.sessionUser()).toBe('grace@acme.test');
    const user = await adapter.getUserByEmail('grace@acme.test');
    expect(user?.name).toBe('Grace Hopper');
    expect(await members()).toContainEqual([user!.id, 'admin']);
  });

  it('refuses the same POST replayed, with a stable code, and nothing changes', async () => {
    const browser = new Browser(app.base, 'Grace Browser/2.0');
    const form = await toIdp(browser, 'grace@acme.test');
    expect((await submit(browser, form)).status).toBe(303);
    expect(await browser.sessionUser()).toBe('grace@acme.test');
    const sessionToken = browser.jar.get('framework.session-token');
    expect(sessionToken).toBeTruthy();
    const before = await members();
    const warned = warnings.length;

    // The same POST again from the same browser, then from another one (the form's fields copied out).
    const replayed = await submit(browser, form);
    expect(replayed.status).toBe(400);
    const elsewhere = new Browser(app.base, 'Other Browser/1.0');
    const asJson = await submit(elsewhere, form, 'application/json');
    expect([asJson.status, (await json(asJson)).error.code]).toEqual([400, 'SSO_SAML_REJECTED']);
    // Refused by the stored assertion id (the log names the reason; the answers do not).
    expect(warnings.slice(warned).filter((w) => w.includes('SAML_REPLAYED'))).toHaveLength(2);
    expect(await replayed.text()).not.toContain('SAML_REPLAYED');

    expect(await elsewhere.sessionUser()).toBeNull();
    expect(await browser.sessionUser()).toBe('grace@acme.test');
    expect(browser.jar.get('framework.session-token')).toBe(sessionToken);
    expect(await members()).toEqual(before);
  });

  it('refuses a response signed by another key: no session, no user, no membership', async () => {
    idpServer.state.signWith = otherKey;
    idpServer.state.person = { nameId: 'linus@acme.test', attributes: { role: ['admin'], displayName: ['Linus'] } };
    try {
      const browser = new Browser(app.base, 'Linus Browser/1.0');
      const before = await members();
      const warned = warnings.length;
      const form = await toIdp(browser, 'linus@acme.test');
      const refused = await submit(browser, form);
      expect(refused.status).toBe(400);
      expect(warnings.slice(warned).some((w) => w.includes('SAML_SIGNATURE_INVALID'))).toBe(true);
      expect(await browser.sessionUser()).toBeNull();
      expect(await adapter.getUserByEmail('linus@acme.test')).toBeNull();
      expect(await members()).toEqual(before);
    } finally {
      idpServer.state.signWith = key;
    }
  });
});
