/**
 * `@framework/auth/tenant`: multi-tenancy (spec: "Multi-tenancy"). A
 * resolver finds the request's tenant by subdomain, path, header or cookie;
 * tenants and memberships live in SQL (Kysely: SQLite, PostgreSQL), a KV
 * namespace or Redis, or memory.
 *
 * @example
 * ```ts
 * import { createSqlTenantStorage, createTenantResolver } from '@framework/auth/tenant';
 *
 * const storage = createSqlTenantStorage(db);
 * await storage.migrate();
 * const tenants = createTenantResolver(storage, { strategy: 'path' }); // /t/:slug/…
 * const { tenant } = await tenants.require(request);                   // or 404 TENANT_NOT_FOUND
 * const { membership } = await tenants.requireMember(request, user);   // or 401 / 403
 * ```
 * @module
 */
export { createTenantResolver, type TenantResolver, type TenantResolverOptions } from './tenant/resolver.js';
export { LastOwnerError, TenantNotFoundError } from './tenant/errors.js';
export { isValidTenantSlug, isValidTenantId } from './tenant/slug.js';
export { createMemoryTenantStorage } from './tenant/storage/memory.js';
export { createSqlTenantStorage, type SqlTenantStorageOptions } from './tenant/storage/sql.js';
export {
  createKeyValueTenantStorage,
  type KeyValueTenantStorageOptions,
  type KeyValueNamespace,
  type RedisLikeClient,
  type TenantKeyValueStore,
} from './tenant/storage/kv.js';
export type {
  MemberPage,
  MembershipGuard,
  PageQuery,
  Tenant,
  TenantPage,
  TenantInput,
  TenantPatch,
  TenantMembership,
  TenantStorage,
} from './tenant/types.js';
