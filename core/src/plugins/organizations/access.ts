/**
 * `organizationsAccess(plugin)`: what plugins built on `organizations()` use (`sso()`): the membership checks of its
 * routes and its storage, bound when `createAuth` initialises the plugin.
 * @module
 */
import type { AuthPlugin } from '../../contract/types.js';
import type { Caller } from '../../routes/account/signed-in.js';
import type { Tenant, TenantMembership } from '../../tenant/types.js';
import { managerOf, type Membership } from './guards.js';
import type { ResolvedOrganizationsOptions } from './options.js';

/** The membership checks and storage of one `organizations()` plugin. */
export interface OrganizationsAccess {
  /**
   * The organization `key` names (id or slug) with the caller's membership, for a role of `managerRoles` (owners
   * and admins by default), as the organization routes check it.
   * @throws AuthError `INVALID_REQUEST` (400) without a key; `TENANT_NOT_FOUND` (404) when it does not exist or the
   *   caller is not a member (one answer for both); `FORBIDDEN` (403) for other roles.
   */
  managerOf(caller: Caller, key: string | null | undefined): Promise<Membership>;
  /** The organization with this id or slug, or null. */
  get(key: string): Promise<Tenant | null>;
  /**
   * Adds `userId` to the organization with `role` unless they are a member already (whose role is kept, so a
   * sign-in never demotes an owner). Returns the membership.
   * @throws TenantNotFoundError (`TENANT_NOT_FOUND`, 404) when the organization does not exist.
   */
  join(organizationId: string, userId: string, role: string): Promise<TenantMembership>;
  /** The organization roles, highest first. */
  readonly roles: readonly string[];
  /** The role of a member who was given none (`defaultRole`, default `member`). */
  readonly defaultRole: string;
}

const bound = new WeakMap<object, ResolvedOrganizationsOptions>();

/** Records the resolved options of an `organizations()` plugin object. @internal */
export function bindOrganizationsAccess(plugin: object, o: ResolvedOrganizationsOptions): void {
  bound.set(plugin, o);
}

/**
 * The membership checks and storage of `plugin`, an `organizations()` plugin object that is also passed to
 * `createAuth` (its storage is bound there: use the answer in requests, after `createAuth`).
 * @throws TypeError when `plugin` is not what `organizations()` returned.
 * @example
 * ```ts
 * const orgs = organizations({ sendInvitation });
 * const access = organizationsAccess(orgs);
 * const auth = createAuth({ ...config, plugins: [orgs, myPlugin(access)] });
 * // In a route of myPlugin: const { organization } = await access.managerOf(caller, ctx.body.organizationId);
 * ```
 */
export function organizationsAccess(plugin: AuthPlugin<'organizations', any, any, any>): OrganizationsAccess {
  const o = plugin && bound.get(plugin);
  if (!o) throw new TypeError('organizationsAccess() takes the plugin object organizations() returned');
  return {
    managerOf: (caller, key) => managerOf(o, caller, key),
    get: (key) => o.tenants.get(key),
    async join(organizationId, userId, role) {
      const member = await o.tenants.getMember(organizationId, userId);
      return member ?? o.tenants.addMember({ tenantId: organizationId, userId, role });
    },
    roles: o.roles,
    defaultRole: o.defaultRole,
  };
}
