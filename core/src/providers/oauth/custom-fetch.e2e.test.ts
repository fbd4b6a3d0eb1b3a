/**
 * A provider's own `fetch` (createOAuth2Provider `fetch`) carries every request of the flow against a real OIDC
 * provider (oauth2-mock-server on port 0): discovery, token, JWKS and UserInfo.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOAuth2Provider } from './create.js';
import { Browser, claimsProfile, makeAuth, patchNextIdToken, startProvider } from './oauth-harness.js';
import { authError } from '../../errors/auth-error.js';

let provider: Awaited<ReturnType<typeof startProvider>>;
beforeAll(async () => {
  provider = await startProvider();
});
afterAll(() => provider.stop());

/** A fetch that records each URL and request init, then fetches for real (or refuses the URLs `refuse` names). */
function recordingFetch(refuse: (url: string) => boolean = () => false) {
  const seen: Array<{ url: string; redirect: RequestRedirect | undefined }> = [];
  const custom: typeof fetch = async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    seen.push({ url, redirect: init?.redirect });
    if (refuse(url)) throw authError('FORBIDDEN', 'refused by the test fetch');
    return fetch(input, init);
  };
  return { seen, custom };
}

const oidc = (custom: typeof fetch) =>
  createOAuth2Provider({
    id: 'fetched',
    name: 'Fetched OIDC',
    issuer: provider.issuer,
    clientId: 'kitclient',
    clientSecret: 'kit-client-secret',
    profile: claimsProfile,
    fetch: custom,
  });

const errorOf = (res: Response) => new URL(res.headers.get('location')!, 'http://x').searchParams.get('error');

describe('createOAuth2Provider({ fetch })', () => {
  it('sends discovery, token, JWKS and UserInfo through the provider fetch, with redirects not followed', async () => {
    const { seen, custom } = recordingFetch();
    const { auth } = makeAuth({ providers: [oidc(custom)] });
    const b = new Browser(auth);
    patchNextIdToken(provider.server, { sub: 'fetch-user', email: 'fetched@example.com', email_verified: true });
    const res = await b.signIn('fetched');
    expect(res.status).toBe(303);
    expect((await b.session())?.user.email).toBe('fetched@example.com');
    const urls = seen.map((s) => s.url);
    expect(urls).toEqual(
      expect.arrayContaining([
        `${provider.issuer}/.well-known/openid-configuration`,
        `${provider.issuer}/token`,
        `${provider.issuer}/jwks`,
        `${provider.issuer}/userinfo`,
      ]),
    );
    expect(seen.every((s) => s.redirect === 'manual')).toBe(true);
  });

  it("ends the callback with the fetch's AuthError code when it refuses the token request; no user is made", async () => {
    const { seen, custom } = recordingFetch((url) => url.endsWith('/token'));
    const { auth, adapter } = makeAuth({ providers: [oidc(custom)] });
    const b = new Browser(auth);
    patchNextIdToken(provider.server, { sub: 'refused-user', email: 'refused@example.com', email_verified: true });
    const res = await b.signIn('fetched');
    expect(res.status).toBe(303);
    expect(errorOf(res)).toBe('Forbidden');
    expect(seen.map((s) => s.url)).toContain(`${provider.issuer}/token`);
    expect(await adapter.getUserByEmail('refused@example.com')).toBeNull();
    expect(await b.session()).toBeNull();
  });
});
