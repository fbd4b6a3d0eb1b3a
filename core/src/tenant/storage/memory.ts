/**
 * `createMemoryTenantStorage`: tenants in process memory, for tests and demos.
 * @module
 */
import { StorageConflictError } from '../../storage/types.js';
import type { Tenant, TenantMembership, TenantStorage } from '../types.js';
import { keyPage, takesOwner, tenantStorage, type TenantBackend } from './backend.js';

const memberKey = (tenantId: string, userId: string) => `${tenantId}\u0000${userId}`;
const copyAll = <T>(values: Iterable<T>): T[] => [...values].map((v) => structuredClone(v));

/**
 * Creates a tenant storage kept in memory (spec: "for testing"). Data lives
 * as long as the object; nothing is shared between processes. Behaves as the
 * {@link TenantStorage} contract says and passes the same conformance suite
 * as the SQL and key-value storages.
 * @example
 * ```ts
 * import { createMemoryTenantStorage, createTenantResolver } from '@framework/auth/tenant';
 *
 * const storage = createMemoryTenantStorage();
 * await storage.create({ slug: 'acme', name: 'Acme Inc.' });
 * const resolver = createTenantResolver(storage, { strategy: 'path' });
 * await resolver.resolve(new Request('https://app.example.com/t/acme/')); // the Acme tenant
 * ```
 */
export function createMemoryTenantStorage(): TenantStorage {
  const tenants = new Map<string, Tenant>();
  const slugs = new Map<string, string>();
  const memberships = new Map<string, TenantMembership>();
  const find = (id: string | undefined) => {
    const tenant = id === undefined ? undefined : tenants.get(id);
    return tenant ? structuredClone(tenant) : null;
  };
  const matching = (test: (m: TenantMembership) => boolean) => copyAll([...memberships.values()].filter(test));

  const backend: TenantBackend = {
    migrate: async () => {},
    byId: async (id) => find(id),
    bySlug: async (slug) => find(slugs.get(slug)),
    tenantsAfter: async (after, limit) => copyAll(keyPage([...tenants.values()], (t) => t.id, after, limit)),
    async insert(tenant) {
      if (tenants.has(tenant.id)) throw new StorageConflictError('Tenant id is taken', 'id');
      if (slugs.has(tenant.slug)) throw new StorageConflictError('Tenant slug is taken', 'slug');
      tenants.set(tenant.id, structuredClone(tenant));
      slugs.set(tenant.slug, tenant.id);
    },
    async replace(next, previous) {
      const owner = slugs.get(next.slug);
      if (owner !== undefined && owner !== next.id) throw new StorageConflictError('Tenant slug is taken', 'slug');
      slugs.delete(previous.slug);
      slugs.set(next.slug, next.id);
      tenants.set(next.id, structuredClone(next));
    },
    async remove(id) {
      const tenant = tenants.get(id);
      if (!tenant) return false;
      tenants.delete(id);
      slugs.delete(tenant.slug);
      for (const [key, m] of memberships) if (m.tenantId === id) memberships.delete(key);
      return true;
    },
    async putMember(membership) {
      memberships.set(memberKey(membership.tenantId, membership.userId), structuredClone(membership));
    },
    async member(tenantId, userId) {
      const m = memberships.get(memberKey(tenantId, userId));
      return m ? structuredClone(m) : null;
    },
    membersAfter: async (tenantId, after, limit) =>
      copyAll(
        keyPage(
          [...memberships.values()].filter((m) => m.tenantId === tenantId),
          (m) => m.userId,
          after,
          limit,
        ),
      ),
    memberships: async (userId) => matching((m) => m.userId === userId),
    removeMember: async (tenantId, userId) => memberships.delete(memberKey(tenantId, userId)),
    // Check and write in one synchronous step: no other call runs in between on the event loop.
    async guardedChange(change) {
      const key = memberKey(change.tenantId, change.userId);
      const current = memberships.get(key);
      if (takesOwner(current, change)) {
        const other = [...memberships.values()].some(
          (m) => m.tenantId === change.tenantId && m.userId !== change.userId && m.role === change.keepOwner,
        );
        if (!other) return 'refused';
      }
      if (change.role === null) {
        if (!current) return null;
        memberships.delete(key);
        return structuredClone(current);
      }
      const { tenantId, userId, role } = change;
      const next: TenantMembership = { tenantId, userId, role, createdAt: current?.createdAt ?? change.createdAt };
      memberships.set(key, next);
      return structuredClone(next);
    },
  };
  return tenantStorage(backend);
}
