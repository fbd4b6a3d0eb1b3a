/**
 * OAuth tokens are encrypted at rest end to end: a real OIDC sign-in
 * (oauth2-mock-server) stores them encrypted, `auth.getAccessToken` hands
 * out the plain token, and a refresh stores the new tokens encrypted too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOAuth2Provider } from './providers/oauth/create.js';
import { Browser, SECRET, patchNextIdToken, startProvider } from './providers/oauth/oauth-harness.js';
import { createAuth } from './auth.js';
import { createMemoryAdapter } from './storage/memory.js';

let provider: Awaited<ReturnType<typeof startProvider>>;
beforeAll(async () => {
  provider = await startProvider();
});
afterAll(() => provider.stop());

function setup(secret: string | string[] = SECRET) {
  const raw = createMemoryAdapter();
  const devOidc = createOAuth2Provider({
    id: 'devoidc',
    name: 'Dev OIDC',
    issuer: provider.issuer,
    clientId: 'kitclient',
    clientSecret: 'kit-client-secret',
    profile: (claims) => ({ id: String(claims.sub), email: null }),
  });
  const make = (s: string | string[]) =>
    createAuth({ secret: s, adapter: raw, providers: [devOidc], logger: { error: () => {}, warn: () => {} } });
  return { raw, auth: make(secret), make };
}

const KEY = { provider: 'devoidc', providerAccountId: 'enc-user' };

describe('OAuth tokens at rest', () => {
  it('are stored encrypted; getAccessToken returns the plain token, also after rotating the secret', async () => {
    const { raw, auth, make } = setup();
    const browser = new Browser(auth);
    patchNextIdToken(provider.server, { sub: 'enc-user' });
    await browser.signIn('devoidc');
    const request = new Request('http://app.test/', { headers: { cookie: browser.header() } });

    const stored = (await raw.getAccount(KEY))!;
    const clear = (await auth.adapter!.getAccount(KEY))!;
    for (const field of ['access_token', 'refresh_token', 'id_token'] as const) {
      expect(clear[field]).toBeTruthy();
      expect(stored[field]).toMatch(/^enc:v1:/);
      expect(stored[field]).not.toContain(clear[field]!);
    }
    expect(clear.id_token!.split('.')).toHaveLength(3);
    expect(await auth.getAccessToken(request, 'devoidc')).toBe(clear.access_token);

    const rotated = make(['another-secret-another-secret-another-1', SECRET]);
    expect(await rotated.getAccessToken(request, 'devoidc')).toBe(clear.access_token);
  });

  it('a refresh stores the new tokens encrypted', async () => {
    const { raw, auth } = setup();
    const browser = new Browser(auth);
    patchNextIdToken(provider.server, { sub: 'enc-user' });
    await browser.signIn('devoidc');
    await raw.updateAccount(KEY, { expires_at: 1 });
    const fresh = (res: { body: Record<string, unknown> }, req: { body: Record<string, string> }) => {
      if (req.body.grant_type === 'refresh_token')
        Object.assign(res.body, { access_token: 'refreshed-access', refresh_token: 'rotated-refresh' });
    };
    provider.server.service.on('beforeResponse', fresh);
    try {
      const token = await auth.getAccessToken(
        new Request('http://app.test/', { headers: { cookie: browser.header() } }),
        'devoidc',
      );
      expect(token).toBe('refreshed-access');
    } finally {
      provider.server.service.off('beforeResponse', fresh);
    }
    const stored = (await raw.getAccount(KEY))!;
    expect(stored.access_token).toMatch(/^enc:v1:/);
    expect(stored.refresh_token).toMatch(/^enc:v1:/);
    expect(await auth.adapter!.getAccount(KEY)).toMatchObject({
      access_token: 'refreshed-access',
      refresh_token: 'rotated-refresh',
    });
  });
});
