/**
 * `organizations()`: teams with invitations, members and roles, on `@framework/auth/tenant` storage.
 * @module
 */
import type { AuthInternals, AuthPlugin } from '../../contract/types.js';
import type { ErrorCodesOf } from '../../errors/define.js';
import { ORGANIZATION_ERRORS } from './errors.js';
import { AuthConfigError, ForbiddenError, UnauthenticatedError } from '../../errors.js';
import { activeOf } from './active.js';
import type { Membership } from './guards.js';
import {
  resolveOrganizationsOptions,
  type OrganizationsOptions,
  type ResolvedOrganizationsOptions,
} from './options.js';
import { leaveOrganizationsBeforeDeletion } from './account-deletion.js';
import { organizationRoutes } from './routes.js';
import { memberSubject, orgRolesApply } from './guards.js';
import { bindOrganizationsAccess } from './access.js';

/** `auth.extensions.organizations`. */
export interface OrganizationsExtension {
  /** The request's active organization and `user`'s membership of it, or null (none chosen, or not a member). */
  active(request: Request, user: { id: string } | null | undefined): Promise<Membership | null>;
  /**
   * Whether `user`'s role in the active organization grants `permission` under `createAuth({ rbac })` (the
   * organization role is checked as an RBAC role). False without an active membership or without `rbac`.
   */
  can(
    request: Request,
    user: { id: string } | null | undefined,
    permission: string | readonly string[],
  ): Promise<boolean>;
  /**
   * As {@link can}, throwing instead.
   * @throws UnauthenticatedError (401) without a user; ForbiddenError (403) without an active membership granting it.
   */
  requirePermission(
    request: Request,
    user: { id: string } | null | undefined,
    permission: string | readonly string[],
  ): Promise<Membership>;
}

/**
 * Organizations (teams) on the plugin surface, stored as `@framework/auth/tenant` tenants and memberships, so
 * `createTenantResolver(tenants, { strategy: 'cookie', cookieName: ACTIVE_ORGANIZATION_COOKIE })` and its
 * `requireMember` see the same active organization. Routes under `basePath` (JSON, or the no-JS page at
 * `GET /org`; POSTs CSRF-checked):
 *
 * - `POST /org/create {name, slug?}` (the creator becomes `ownerRole`, and it becomes active), `POST /org/update`,
 *   `POST /org/delete` (owners), `GET /org/list`, `POST /org/set-active {organizationId}`, `GET /org/active`.
 * - `GET /org/members?organizationId=`, `POST /org/members/set-role {organizationId, userId, role}`,
 *   `POST /org/members/remove`, `POST /org/leave`, `POST /org/transfer {organizationId, userId}` (owners). The last
 *   owner cannot leave, be removed or be demoted (409 `LAST_OWNER`), nor delete their account
 *   (`POST /account/delete`) or be removed by `admin()`, until they transfer ownership or delete the organization.
 *   Each of these changes is one guarded step of the tenant storage (`{ keepOwner: ownerRole }`), so concurrent
 *   requests (two co-owners leaving or deleting their accounts at once) leave one owner: atomic on the memory and
 *   SQL storages, best-effort on the key-value one (see `createKeyValueTenantStorage`).
 * - `POST /org/invite {organizationId, email, role?}` (managers; `sendInvitation` gets a single-use link valid
 *   `invitationMaxAge`, default 7 days, built on `baseURL`; the token is stored hashed), `GET /org/invitations`,
 *   `POST /org/invitations/revoke {invitationId}`, `POST /org/invitations/resend` (at most once per
 *   `resendInterval`, default 60 s: 429 `RATE_LIMITED`; the old link stops working).
 * - `GET /org/invitation?token=` (what it is; a page with accept/decline), `POST /org/invitation/accept {token |
 *   invitationId}` (the signed-in user's verified email must be the invited one: 403 `INVITATION_EMAIL_MISMATCH`,
 *   `EMAIL_NOT_VERIFIED`; a used, revoked or expired one is 400 `TOKEN_INVALID`), `POST /org/invitation/decline`,
 *   `GET /org/invitations/mine`.
 *
 * RBAC: with `createAuth({ rbac })`, the role in the active organization counts in the request scope's checks
 * (`requirePermission('billing:read')`, `hasRole`, `authMiddleware` inside `auth.run` or an adapter's session
 * middleware), besides the user's own roles; `can`/`requirePermission` of the extension check that role alone.
 *
 * Isolation: every route checks the caller's membership of the organization it names, and answers 404
 * `TENANT_NOT_FOUND` alike for organizations that do not exist and those the caller is not in; managing needs a
 * role of `managerRoles` (403 `FORBIDDEN`). Events: `onOrganizationCreated`, `onOrganizationDeleted`,
 * `onMemberInvited`, `onInvitationAccepted`, `onMemberRoleChanged`, `onMemberRemoved`.
 *
 * @throws AuthConfigError (`INVALID_CONFIG`) without `adapter`, for bad options, or when `rbac` lacks an
 *   organization role.
 * @example
 * ```ts
 * import { createSqlTenantStorage } from '@framework/auth/tenant';
 * import { organizations, createSqlInvitationStorage } from '@framework/auth/plugins/organizations';
 *
 * const auth = createAuth({
 *   ...config,
 *   rbac, // roles owner, admin, member with their permissions
 *   plugins: [
 *     organizations({
 *       tenants: createSqlTenantStorage(db),
 *       invitations: createSqlInvitationStorage(db),
 *       sendInvitation: ({ email, organization, url }) => mailer.send({ to: email, subject: `Join ${organization.name}`, text: url }),
 *     }),
 *   ],
 * });
 * await auth.migrate();
 * // In a route: await auth.extensions.organizations.requirePermission(request, user, 'billing:read');
 * ```
 */
export function organizations(
  options: OrganizationsOptions,
): AuthPlugin<'organizations', OrganizationsExtension, Record<never, never>, ErrorCodesOf<typeof ORGANIZATION_ERRORS>> {
  const o: ResolvedOrganizationsOptions = resolveOrganizationsOptions(options);
  let internals: AuthInternals | undefined;
  const can = async (
    request: Request,
    user: { id: string } | null | undefined,
    permission: string | readonly string[],
  ) => {
    const found = user && orgRolesApply(o, user) ? await activeOf(o, request, user.id) : null;
    if (!found || !internals?.rbac) return null;
    return internals.rbac.hasPermission(memberSubject(user!, found.membership.role), permission) ? found : null;
  };
  const plugin: AuthPlugin<
    'organizations',
    OrganizationsExtension,
    Record<never, never>,
    ErrorCodesOf<typeof ORGANIZATION_ERRORS>
  > = {
    id: 'organizations',
    errorCodes: ORGANIZATION_ERRORS,
    init(auth) {
      if (!auth.adapter)
        throw new AuthConfigError('Invalid auth config: organizations() needs `adapter` (members are stored users)');
      const missing = auth.rbac ? o.roles.filter((r) => !auth.rbac!.roles.has(r)) : [];
      if (missing.length > 0)
        throw new AuthConfigError(
          `Invalid auth config: organizations() roles ${missing.map((r) => `"${r}"`).join(', ')} are not RBAC roles`,
        );
      o.bindStorage(auth.adapter);
      internals = auth;
      return {
        active: (request, user) => activeOf(o, request, user?.id),
        can: async (request, user, permission) => (await can(request, user, permission)) !== null,
        async requirePermission(request, user, permission) {
          if (!user) throw new UnauthenticatedError();
          const found = await can(request, user, permission);
          if (!found) throw new ForbiddenError("You don't have access");
          return found;
        },
      };
    },
    routes: organizationRoutes(o),
    hooks: {
      // The role in the active organization counts in the request scope's RBAC checks (`requirePermission`).
      async requestRoles(request, user) {
        if (!internals?.rbac || !orgRolesApply(o, user)) return [];
        const found = await activeOf(o, request, user.id);
        return found ? [found.membership.role] : [];
      },
      // The only owner of an organization cannot be deleted (409 LAST_OWNER), as they cannot leave it: the
      // memberships go through the storage's guarded removal, all or nothing (restored if the deletion stops later).
      beforeUserDelete: (userId) => leaveOrganizationsBeforeDeletion(o, userId),
      async userDeleted(userId) {
        for (const m of await o.tenants.listMemberships(userId)) await o.tenants.removeMember(m.tenantId, userId);
      },
    },
    async migrate() {
      await o.tenants.migrate();
      await o.invitations.migrate();
    },
  };
  // Plugins built on this one (sso()) reach its checks and storage through organizationsAccess(plugin).
  bindOrganizationsAccess(plugin, o);
  return plugin;
}
