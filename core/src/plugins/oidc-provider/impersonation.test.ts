/**
 * An admin acting as a user (`admin()` impersonation) cannot authorize an application for them: the authorize step
 * answers 403 `IMPERSONATION_RESTRICTED` (the error page, no redirect), since the application's tokens would
 * outlive the impersonation; nor revoke the user's apps.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { passwordAccounts } from '../../password-accounts.js';
import { ORIGIN, makeFixture } from '../../testing/fixtures.js';
import { admin, createMemoryAdminStorage } from '../admin/index.js';
import { jwt } from '../jwt/index.js';
import { oidcProvider } from './index.js';

describe('oidcProvider and impersonation', () => {
  it('refuses the authorize step and Revoke during an impersonation', async () => {
    const f = await makeFixture('database', {
      baseURL: ORIGIN,
      rateLimit: { login: false },
      plugins: [
        admin({ storage: createMemoryAdminStorage() }),
        jwt({ audience: 'https://api.example' }),
        oidcProvider({
          clients: [{ clientId: 'rp', name: 'RP', redirectUris: ['https://rp.example/cb'], skipConsent: true }],
        }),
      ],
    });
    const root = await passwordAccounts(f.adapter).register({ email: 'root@example.com', password: 'correct-horse-1' });
    await f.adapter.updateUser(root.id, { role: 'admin' });
    const query = new URLSearchParams({
      client_id: 'rp',
      redirect_uri: 'https://rp.example/cb',
      response_type: 'code',
      scope: 'openid',
      code_challenge: createHash('sha256').update('v'.repeat(43)).digest('base64url'),
      code_challenge_method: 'S256',
    });
    const c = f.client();
    expect((await c.signIn('root@example.com', 'correct-horse-1')).status).toBe(200);
    // The admin for themselves: a code.
    const own = await c.request(`/auth/oauth2/authorize?${query.toString()}`);
    expect(new URL(own.headers.get('location')!).searchParams.get('code')).toBeTruthy();
    expect((await c.postJson('/auth/admin/impersonate', { userId: f.userId })).status).toBe(200);
    const acting = await c.request(`/auth/oauth2/authorize?${query.toString()}`, {
      headers: { accept: 'application/json' },
    });
    expect(acting.status).toBe(403);
    expect(acting.headers.get('location')).toBeNull();
    expect(((await acting.json()) as { error: { code: string } }).error.code).toBe('IMPERSONATION_RESTRICTED');
    expect((await c.postJson('/auth/oauth2/consents/revoke', { clientId: 'rp' })).status).toBe(403);
  });
});
