/**
 * Test helper for the API-key defences: an auth with `apiKeys()`, `admin()` and `organizations()` over a given
 * storage adapter, an admin who owns an organization, and keys of theirs made through the real routes.
 * @module
 * @internal
 */
import type { CreateAuthOptions } from '../../auth.js';
import { defineRBAC } from '../../rbac/define.js';
import type { StorageAdapter } from '../../storage/types.js';
import { createMemoryTenantStorage } from '../../tenant/storage/memory.js';
import { makeFixture, ORIGIN, type TestClient } from '../../testing/fixtures.js';
import { admin } from '../admin/plugin.js';
import type { AdminOptions } from '../admin/options.js';
import { createMemoryAdminStorage } from '../admin/storage/memory.js';
import { organizations } from '../organizations/plugin.js';
import type { OrganizationsOptions } from '../organizations/options.js';
import { createMemoryInvitationStorage } from '../organizations/storage/memory.js';
import { ACTIVE_ORGANIZATION_COOKIE } from '../organizations/active.js';
import { apiKeys } from './plugin.js';
import { createMemoryApiKeyStorage } from './storage/memory.js';

/** Roles of the fixture: `admin` holds everything; `owner`, `admin`, `member` are the organization roles too. */
export const surfacesRbac = defineRBAC({
  roles: [
    { id: 'admin', name: 'Admin', permissions: ['*'] },
    { id: 'editor', name: 'Editor', permissions: ['posts:*'] },
    { id: 'owner', name: 'Owner', permissions: ['org:*', 'billing:*'] },
    { id: 'member', name: 'Member', permissions: ['org:read'] },
  ],
  defaultRole: 'member',
});

/** What {@link surfacesFixture} takes: the storage adapter and the opt-ins of each plugin. */
export interface SurfacesOptions {
  adapter?: StorageAdapter;
  admin?: Partial<AdminOptions>;
  organizations?: Partial<OrganizationsOptions>;
  auth?: Partial<CreateAuthOptions>;
}

/**
 * The fixture: `userId` (role `admin`, owner of organization `orgId`) signed in as `browser`; `key(body)` creates a
 * key through `POST /auth/api-keys`; `headers(key)` are a script's request headers with the key and the
 * active-organization cookie; `admin` is a second admin's browser, for bans.
 */
export async function surfacesFixture(options: SurfacesOptions = {}) {
  const tenants = createMemoryTenantStorage();
  const f = await makeFixture('database', {
    ...(options.adapter ? { adapter: options.adapter } : {}),
    rbac: surfacesRbac,
    rateLimit: { login: false },
    plugins: [
      apiKeys({ storage: createMemoryApiKeyStorage(), rateLimit: false, invalidKeyLimit: false }),
      admin({ storage: createMemoryAdminStorage(), ...options.admin }),
      organizations({
        tenants,
        invitations: createMemoryInvitationStorage(),
        sendInvitation: () => {},
        ...options.organizations,
      }),
    ],
    ...options.auth,
  });
  await f.adapter.updateUser(f.userId, { role: 'admin' });
  const org = await tenants.create({ slug: 'acme', name: 'Acme' });
  await tenants.addMember({ tenantId: org.id, userId: f.userId, role: 'owner' });
  const browser = f.client();
  const signedIn = await browser.signIn();
  if (signedIn.status !== 200) throw new Error(`sign-in failed with ${signedIn.status}`);
  async function key(body: Record<string, string> = {}, client: TestClient = browser): Promise<string> {
    const res = await client.postJson('/auth/api-keys', body);
    if (res.status !== 201) throw new Error(`key creation failed with ${res.status}: ${await res.text()}`);
    return ((await res.json()) as { key: string }).key;
  }
  const headers = (k: string, extra: Record<string, string> = {}): Record<string, string> => ({
    authorization: `Bearer ${k}`,
    cookie: `${ACTIVE_ORGANIZATION_COOKIE}=${org.id}`,
    accept: 'application/json',
    ...extra,
  });
  const request = (k: string, path = '/api/thing', init: RequestInit = {}) =>
    new Request(`${ORIGIN}${path}`, { ...init, headers: headers(k, (init.headers as Record<string, string>) ?? {}) });
  return { ...f, tenants, orgId: org.id, browser, key, headers, request };
}
