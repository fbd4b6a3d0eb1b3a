/**
 * Who may use `admin()`'s routes: checked server-side on every request, against the user as stored now.
 * @module
 * @internal
 */
import { AuthError } from '../../errors.js';
import type { AuthInternals, RouteContext } from '../../routes/context.js';
import { signedIn, type Caller } from '../../routes/account/signed-in.js';
import type { User } from '../../types.js';

/** Who counts as an admin: a role of `adminRoles` (or one inheriting it), or `permission` when set. */
export interface AdminPolicy {
  adminRoles: readonly string[];
  permission: string | undefined;
}

/** Whether `user` is an admin under this policy. */
export function isAdmin(auth: AuthInternals, o: AdminPolicy, user: User): boolean {
  if (o.permission !== undefined) return auth.rbac?.hasPermission(user, o.permission) ?? false;
  const held = new Set([user.role, ...(user.roles ?? [])].filter((r): r is string => typeof r === 'string'));
  if (o.adminRoles.some((role) => held.has(role))) return true;
  const defined = o.adminRoles.filter((role) => auth.rbac?.roles.has(role));
  return defined.length > 0 && auth.rbac!.hasRole(user, defined);
}

/**
 * The signed-in admin (session cookie only, confirmed against storage).
 * @throws AuthError `UNAUTHENTICATED` (401) without a session, `FORBIDDEN` (403) for anyone else, also for an admin
 *   while impersonating.
 */
export async function requireAdmin(ctx: RouteContext, o: AdminPolicy): Promise<Caller> {
  const caller = await signedIn(ctx);
  if (caller.impersonatedBy !== undefined || !isAdmin(ctx.auth, o, caller.user))
    throw new AuthError("You don't have access", { code: 'FORBIDDEN', status: 403 });
  return caller;
}
