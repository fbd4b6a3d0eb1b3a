/**
 * Seeds the SSO demo into the example app: an organization "Acme" (slug `acme-corp`) owned by the demo admin, its
 * OpenID Connect provider pointing at the company IdP (`company-idp.ts`), and its email domain `acme.test`
 * verified. It goes through the app's own routes in-process as the owner (the client secret is encrypted at rest
 * by `sso()` on the way in), and proves the domain through the dev stand-in for DNS (`dev-dns.ts`): the TXT
 * record a real organization would publish at its DNS host is "published" there. Idempotent: run at every dev
 * start, it re-registers the provider with the IdP's current issuer and secret.
 */
import type { Auth, StorageAdapter } from '@framework/auth';
import { ACME_PROVIDER_ID, COMPANY_CLIENT_ID, type CompanyIdp } from './company-idp.js';
import type { DevDns } from './dev-dns.js';
import { DEMO_PASSWORD, DEMO_USERS, ensureUser } from './seed.js';

export const ACME = { name: 'Acme', slug: 'acme-corp', domain: 'acme.test' } as const;
/** The role people signing in through Acme's IdP get in Acme (the provider's `defaultRole`). */
export const ACME_SSO_ROLE = 'editor';

export interface SsoSeedTarget {
  auth: Auth;
  adapter: StorageAdapter;
  /** The app's origin (its `baseURL`): the in-process requests are made as if from a page there. */
  origin: string;
}

/** A cookie-keeping caller of `auth.handler`, as a browser on `origin` (JSON, with a CSRF token). */
function inProcess(auth: Auth, origin: string) {
  const cookies = new Map<string, string>();
  const request = async (path: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    headers.set('accept', 'application/json');
    headers.set('origin', origin);
    headers.set('cookie', [...cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    // A request from this machine (the login limiter counts per client IP).
    const res = await auth.handler(new Request(`${origin}${path}`, { ...init, headers }), { ip: '127.0.0.1' });
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      cookies.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
    return res;
  };
  return {
    async post(path: string, body: Record<string, unknown>): Promise<{ status: number; json: any }> {
      const { csrfToken } = (await (await request('/auth/csrf')).json()) as { csrfToken: string };
      const res = await request(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ csrfToken, ...body }),
      });
      return { status: res.status, json: await res.json() };
    },
    async get(path: string): Promise<any> {
      return (await request(path)).json();
    },
  };
}

/** Throws with the route's answer unless it is 2xx. */
function ok(what: string, res: { status: number; json: any }) {
  if (res.status >= 300) throw new Error(`SSO seed: ${what} answered ${res.status} ${JSON.stringify(res.json)}`);
  return res.json;
}

/**
 * Seeds Acme, its provider at `idp` and its verified domain.
 * @returns the organization's id.
 */
export async function seedAcmeSso(app: SsoSeedTarget, idp: CompanyIdp, dns: DevDns): Promise<string> {
  const owner = DEMO_USERS[0];
  await ensureUser(app.adapter, owner);
  const as = inProcess(app.auth, app.origin);
  ok(
    'signing in the owner',
    await as.post('/auth/callback/credentials', { email: owner.email, password: DEMO_PASSWORD }),
  );
  try {
    const mine = (await as.get('/auth/org/list')).organizations as { id: string; slug: string }[];
    const organizationId =
      mine.find((o) => o.slug === ACME.slug)?.id ??
      ok('creating Acme', await as.post('/auth/org/create', { name: ACME.name, slug: ACME.slug })).organization.id;
    // The IdP's secret is new at every start (it keeps nothing on disk): register the provider again.
    const providers = (await as.get(`/auth/sso/providers?organizationId=${organizationId}`)).providers as {
      id: string;
    }[];
    if (providers.some((p) => p.id === ACME_PROVIDER_ID))
      ok(
        'deleting the old provider',
        await as.post('/auth/sso/providers/delete', { organizationId, providerId: ACME_PROVIDER_ID }),
      );
    ok(
      'registering the provider',
      await as.post('/auth/sso/providers/register', {
        organizationId,
        providerId: ACME_PROVIDER_ID,
        type: 'oidc',
        name: 'Acme company IdP',
        issuer: idp.issuer,
        clientId: COMPANY_CLIENT_ID,
        clientSecret: idp.clientSecret,
        domain: ACME.domain,
        defaultRole: ACME_SSO_ROLE,
      }),
    );
    // The domain proof: claim it, "publish" the TXT record in the dev stand-in for DNS, verify it.
    const claim = ok(
      'claiming acme.test',
      await as.post('/auth/sso/domains/claim', { organizationId, domain: ACME.domain }),
    );
    dns.publish(claim.txtName as string, claim.txtValue as string);
    ok('verifying acme.test', await as.post('/auth/sso/domains/verify', { organizationId, domain: ACME.domain }));
    return organizationId;
  } finally {
    // The seed's own session ends here (each start would otherwise leave one behind).
    await as.post('/auth/signout', {});
  }
}
