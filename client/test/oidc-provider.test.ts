/**
 * `@framework/auth-client/plugins/oidc-provider` against the real engine with `jwt()` and `oidcProvider()`: the
 * signed-in user's "Apps with access", a revocation, and the refusals when signed out or for an app never allowed.
 */
import { describe, expect, it } from 'vitest';
import { jwt } from '@framework/auth/plugins/jwt';
import { oidcProvider } from '@framework/auth/plugins/oidc-provider';
import { listAppsWithAccess, revokeAppAccess } from '../src/plugins/oidc-provider.js';
import { engine } from './engine-fetch.js';

describe('oidc-provider client functions', () => {
  it('lists the apps the user allowed and revokes one', async () => {
    const { auth, ada, browser } = await engine({
      baseURL: 'http://app.test',
      secret: 'client-oidc-provider-test-secret-0123456789',
      rateLimit: { login: false },
      plugins: [
        jwt({ audience: 'https://api.example' }),
        oidcProvider({ clients: [{ clientId: 'rp', name: 'Relying Party', redirectUris: ['https://rp.example/cb'] }] }),
      ],
    });
    const b = browser();
    const opts = { fetch: b.fetch };
    expect(await listAppsWithAccess(opts)).toMatchObject({ ok: false, status: 401 });
    const credentials = { email: 'ada@example.com', password: 'analytical-engine', redirect: false } as const;
    expect((await b.client.signIn('credentials', credentials)).ok).toBe(true);
    await auth.extensions.oidcProvider.storage.putConsent({
      userId: ada.id,
      clientId: 'rp',
      scopes: ['openid', 'email'],
      createdAt: new Date(),
    });
    const listed = await listAppsWithAccess(opts);
    expect(listed.ok).toBe(true);
    expect(listed.data!.apps).toMatchObject([{ clientId: 'rp', name: 'Relying Party', scopes: ['openid', 'email'] }]);
    expect(await revokeAppAccess({ clientId: 'rp' }, opts)).toMatchObject({ ok: true });
    expect((await listAppsWithAccess(opts)).data!.apps).toStrictEqual([]);
    expect(await revokeAppAccess({ clientId: 'rp' }, opts)).toMatchObject({
      ok: false,
      status: 404,
      error: 'OIDC_CONSENT_NOT_FOUND',
    });
  });
});
