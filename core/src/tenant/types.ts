/**
 * Record shapes of multi-tenancy (spec: "Tenant" and "Multi-tenancy").
 * @module
 */

/** A tenant (spec: "Tenant"). Returned objects are fresh copies. */
export interface Tenant {
  /** Unique id: letters, digits, `_`, `-`; 1–128 characters. Generated (a UUID) unless given at creation. */
  id: string;
  /** Unique URL name: lowercase letters, digits and hyphens, 1–63 characters (see `isValidTenantSlug`). */
  slug: string;
  /** Display name. */
  name: string;
  /** JSON-serializable settings; absent when none. */
  settings?: Record<string, unknown>;
  createdAt: Date;
  /** Set at each `update`; never before `createdAt`. */
  updatedAt: Date;
}

/** Input of `TenantStorage.create`. */
export interface TenantInput {
  /** Default: a random UUID. */
  id?: string;
  slug: string;
  name: string;
  settings?: Record<string, unknown> | null;
}

/** Input of `TenantStorage.update`: a key left `undefined` is unchanged; `settings: null` clears them. */
export interface TenantPatch {
  slug?: string;
  name?: string;
  settings?: Record<string, unknown> | null;
}

/** A user's membership of a tenant, with the user's role there (a free-form id such as `owner` or `member`). */
export interface TenantMembership {
  tenantId: string;
  userId: string;
  role: string;
  /** When the user first joined; kept when the role changes. */
  createdAt: Date;
}

/**
 * Option of the guarded membership changes (`removeMember`, `addMember`): keeps the tenant's last member of a role.
 */
export interface MembershipGuard {
  /**
   * Refuse the change, with `LastOwnerError` (`LAST_OWNER`, 409) and nothing written, when it would leave the
   * tenant with no member of this role (removing, or giving another role to, its only holder). The check and the
   * write are one atomic step in memory (one synchronous step) and in SQL (SQLite: one transaction on its single
   * connection; PostgreSQL: a transaction that first locks the tenant's row, so concurrent guarded changes of one
   * tenant run one after another); in the key-value storage it is best-effort (see `createKeyValueTenantStorage`).
   * Unguarded calls (no option) do not take part and may still remove the last holder.
   */
  keepOwner?: string;
}

/** A page query of {@link TenantStorage.list} and {@link TenantStorage.listMembers}. */
export interface PageQuery {
  /** Items per page, 1–100. Default 20. */
  limit?: number;
  /** The `next` cursor of the previous page; absent for the first page. */
  after?: string;
}

/** One page of tenants, in ascending `id` order. */
export interface TenantPage {
  tenants: Tenant[];
  /** The cursor of the next page (the last id of this page), or null on the last page. */
  next: string | null;
}

/** One page of a tenant's members, in ascending `userId` order. */
export interface MemberPage {
  members: TenantMembership[];
  /** The cursor of the next page (the last user id of this page), or null on the last page. */
  next: string | null;
}

/**
 * Where tenants and memberships live. Conventions, checked by the tenant
 * storage conformance suite:
 * - "not found" is `null`, `false` or `[]`, never a throw;
 * - returned objects are fresh copies; `listMemberships` has no guaranteed order, the paged lists are in key order;
 * - a taken `id` or `slug` (the two share one namespace, so `get(idOrSlug)`
 *   is never ambiguous) rejects with `StorageConflictError` (`code:
 *   'CONFLICT'`, `field: 'id' | 'slug'`), leaving stored data unchanged;
 * - invalid input rejects with `AuthError` `INVALID_REQUEST` (400);
 * - deleting a tenant deletes its memberships.
 */
export interface TenantStorage {
  /** Creates or upgrades the schema (SQL); a no-op elsewhere. Idempotent: call it at start-up. */
  migrate(): Promise<void>;
  /** The tenant with this id, else the one with this slug (matched case-insensitively), else null. */
  get(idOrSlug: string): Promise<Tenant | null>;
  /**
   * One page of tenants in ascending `id` order (keyset paging on the primary key, so a page costs the same at
   * any table size on SQL storages).
   * @throws AuthError `INVALID_REQUEST` (400) for a `limit` outside 1–100 or a malformed `after`.
   * @example
   * ```ts
   * let page = await tenants.list({ limit: 100 });
   * while (page.next) page = await tenants.list({ limit: 100, after: page.next });
   * ```
   */
  list(query?: PageQuery): Promise<TenantPage>;
  create(tenant: TenantInput): Promise<Tenant>;
  /** The updated tenant, or null when no tenant has this id. */
  update(id: string, patch: TenantPatch): Promise<Tenant | null>;
  /** Whether a tenant was deleted. Its memberships go with it. */
  delete(id: string): Promise<boolean>;
  /**
   * Adds a user to a tenant with `role`, or changes the role of a member.
   * @param guard `{ keepOwner }`: refuse to take that role from its last holder (see {@link MembershipGuard}).
   * @throws TenantNotFoundError (`TENANT_NOT_FOUND`, 404) when the tenant does not exist.
   * @throws LastOwnerError (`LAST_OWNER`, 409) when `guard` refuses; nothing changed.
   */
  addMember(
    membership: {
      tenantId: string;
      userId: string;
      role: string;
      /** When a new membership began (imports, restoring a removed one). Default: now. Ignored for an existing one. */
      createdAt?: Date;
    },
    guard?: MembershipGuard,
  ): Promise<TenantMembership>;
  getMember(tenantId: string, userId: string): Promise<TenantMembership | null>;
  /**
   * One page of a tenant's members in ascending `userId` order (keyset paging on the membership's primary key);
   * an empty page for an unknown tenant.
   * @throws AuthError `INVALID_REQUEST` (400) for a `limit` outside 1–100 or a malformed `after`.
   */
  listMembers(tenantId: string, query?: PageQuery): Promise<MemberPage>;
  /** The memberships of a user, across tenants. */
  listMemberships(userId: string): Promise<TenantMembership[]>;
  /**
   * Whether a membership was removed.
   * @param guard `{ keepOwner }`: refuse to remove the last member of that role (see {@link MembershipGuard}).
   * @throws LastOwnerError (`LAST_OWNER`, 409) when `guard` refuses; nothing changed.
   */
  removeMember(tenantId: string, userId: string, guard?: MembershipGuard): Promise<boolean>;
}
