/**
 * `@framework/auth-client/plugins/sso` against the real engine with `organizations()` and `sso()`: an owner
 * registers a provider and proves a domain, then a person starts the sign-in by email. The IdP is a discovery
 * document served on 127.0.0.1:0 (the start needs only its authorization endpoint).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organizations } from '@framework/auth/plugins/organizations';
import { sso } from '@framework/auth/plugins/sso';
import { createOrganization } from '../src/plugins/organizations.js';
import {
  claimSsoDomain,
  deleteSsoProvider,
  listSsoDomains,
  listSsoProviders,
  registerSsoProvider,
  signInWithSso,
  updateSsoProvider,
  verifySsoDomain,
} from '../src/plugins/sso.js';
import { engine } from './engine-fetch.js';

const SECRET = 'client-sso-test-secret-0123456789abcdef0123456';
let issuer = '';
const server = createServer((req, res) => {
  res.setHeader('content-type', 'application/json');
  res.end(
    JSON.stringify({
      issuer,
      authorization_endpoint: `${issuer}/authorize`,
      token_endpoint: `${issuer}/token`,
      jwks_uri: `${issuer}/jwks`,
    }),
  );
});
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('sso client functions', () => {
  it('register a provider, prove a domain, list both, start a sign-in by email, and remove the provider', async () => {
    const txt = new Map<string, string[][]>();
    const orgs = organizations({ sendInvitation: () => {} });
    const { browser } = await engine({
      secret: SECRET,
      // The stand-in IdP listens on http://127.0.0.1, and the test engine has no base URL.
      plugins: [
        orgs,
        sso({ organizations: orgs, allowPrivateIssuers: true, resolveTxt: async (name) => txt.get(name) ?? [] }),
      ],
      rateLimit: { login: false },
    });
    const owner = browser();
    const opts = { fetch: owner.fetch };
    await owner.client.signIn('credentials', {
      email: 'ada@example.com',
      password: 'analytical-engine',
      redirect: false,
    });
    const organizationId = (await createOrganization({ name: 'Acme', slug: 'acme' }, opts)).data!.organization.id;

    const registered = await registerSsoProvider(
      { organizationId, type: 'oidc', name: 'Acme IdP', providerId: 'acme', issuer, clientId: 'c', clientSecret: 's' },
      opts,
    );
    expect(registered.data?.provider).toMatchObject({ id: 'acme', oidc: { issuer, clientId: 'c' } });
    expect((await listSsoProviders({ organizationId }, opts)).data?.providers.map((p) => p.id)).toEqual(['acme']);

    const claim = await claimSsoDomain({ organizationId, domain: 'acme.test' }, opts);
    expect(claim.data?.txtName).toBe('_framework-sso.acme.test');
    expect((await verifySsoDomain({ organizationId, domain: 'acme.test' }, opts)).error).toBe('SSO_DOMAIN_UNVERIFIED');
    txt.set(claim.data!.txtName, [[claim.data!.txtValue]]);
    expect((await verifySsoDomain({ organizationId, domain: 'acme.test' }, opts)).data?.domain.verified).toBe(true);
    expect((await listSsoDomains({ organizationId }, opts)).data?.domains).toMatchObject([
      { domain: 'acme.test', verified: true },
    ]);

    const person = browser();
    const started = await signInWithSso({ email: 'grace@acme.test' }, { fetch: person.fetch });
    const url = new URL(started.data!.url);
    expect(url.origin + url.pathname).toBe(`${issuer}/authorize`);
    expect(url.searchParams.get('client_id')).toBe('c');
    expect((await signInWithSso({ email: 'grace@elsewhere.test' }, { fetch: person.fetch })).error).toBe(
      'SSO_NO_PROVIDER',
    );

    const renamed = await updateSsoProvider(
      { organizationId, providerId: 'acme', name: 'Acme Okta', clientId: 'c2' },
      opts,
    );
    expect(renamed.data?.provider).toMatchObject({ id: 'acme', name: 'Acme Okta', oidc: { issuer, clientId: 'c2' } });
    const moved = await signInWithSso({ email: 'grace@acme.test' }, { fetch: person.fetch });
    expect(new URL(moved.data!.url).searchParams.get('client_id')).toBe('c2');
    expect((await updateSsoProvider({ organizationId, providerId: 'nope', name: 'x' }, opts)).error).toBe(
      'SSO_PROVIDER_NOT_FOUND',
    );
    expect(
      (await updateSsoProvider({ organizationId, providerId: 'acme', name: 'x' }, { fetch: person.fetch })).ok,
    ).toBe(false);

    expect((await deleteSsoProvider({ organizationId, providerId: 'acme' }, opts)).ok).toBe(true);
    expect((await signInWithSso({ providerId: 'acme' }, { fetch: person.fetch })).error).toBe('SSO_NO_PROVIDER');
  });
});
