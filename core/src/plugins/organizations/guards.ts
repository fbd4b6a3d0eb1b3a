/**
 * The checks every organization route makes: the caller is signed in, the organization exists and the caller is
 * a member (one answer, 404 `TENANT_NOT_FOUND`, for both, so ids of other organizations reveal nothing), and the
 * caller's role allows the action.
 * @module
 * @internal
 */
import { authError } from '../../errors/auth-error.js';
import { TenantNotFoundError } from '../../tenant/errors.js';
import type { Tenant, TenantMembership } from '../../tenant/types.js';
import type { RouteContext } from '../../contract/types.js';
import type { Caller } from '../../routes/account/signed-in.js';
import type { ResolvedOrganizationsOptions } from './options.js';
import type { RBACSubject } from '../../rbac/types.js';
import type { User } from '../../types.js';
import { isPluginCredential } from '../credential.js';

/**
 * Whether organization roles count for `user`: never for a user read from an API key (any credential a plugin reads
 * per request, which may carry the active-organization cookie alone) unless `allowApiKeys`.
 */
export function orgRolesApply(o: Pick<ResolvedOrganizationsOptions, 'allowApiKeys'>, user: object): boolean {
  return o.allowApiKeys || !isPluginCredential(user as User);
}

/**
 * The subject of an organization-role check: `user` acting with `role` alone, keeping what restricts it (an API
 * key's permissions and roles), so a key never outgrows its grant through an organization role.
 */
export function memberSubject(user: { id: string }, role: string): RBACSubject {
  return { ...user, id: user.id, role, roles: [] };
}

/** An organization and the caller's membership of it. */
export interface Membership {
  organization: Tenant;
  membership: TenantMembership;
}

export const invalid = (message: string) => authError('INVALID_REQUEST', message);
export const forbidden = (message = "You don't have access") => authError('FORBIDDEN', message);

/** The organization `key` (id or slug) names, with the caller's membership. @throws 400, 404 `TENANT_NOT_FOUND`. */
export async function memberOf(
  o: ResolvedOrganizationsOptions,
  caller: Caller,
  key: string | undefined | null,
): Promise<Membership> {
  if (!key || key.length > 128) throw invalid('`organizationId` is required');
  const organization = await o.tenants.get(key);
  const membership = organization ? await o.tenants.getMember(organization.id, caller.user.id) : null;
  if (!organization || !membership) throw new TenantNotFoundError('Organization not found');
  return { organization, membership };
}

/** As {@link memberOf}, for a role of `managerRoles`. @throws 403 `FORBIDDEN` for other members. */
export async function managerOf(o: ResolvedOrganizationsOptions, caller: Caller, key: string | undefined | null) {
  const found = await memberOf(o, caller, key);
  if (!o.managerRoles.includes(found.membership.role)) throw forbidden('Only managers of the organization may do this');
  return found;
}

/** The organization key of a route: `organizationId` from the body (POST) or the query (GET). */
export const organizationKey = (ctx: RouteContext) =>
  ctx.request.method === 'POST' ? ctx.body.organizationId : ctx.url.searchParams.get('organizationId');
