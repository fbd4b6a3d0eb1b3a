/**
 * Who may use `admin()`'s routes: checked server-side on every request, against the user as stored now.
 * @module
 * @internal
 */
import { authError } from '../../errors/auth-error.js';
import type { AuthInternals, RouteContext } from '../../contract/types.js';
import type { Caller } from '../../routes/account/signed-in.js';
import { cookieCaller } from '../cookie-caller.js';
import type { User } from '../../types.js';
import { isPluginCredential } from '../credential.js';
import { credentialLimits } from '../../rbac/restriction.js';

/**
 * Who counts as an admin: a role of `adminRoles` (or one inheriting it), or `permission` when set; a user read from
 * an API key only with `allowApiKeys`.
 */
export interface AdminPolicy {
  adminRoles: readonly string[];
  permission: string | undefined;
  allowApiKeys?: boolean;
}

/**
 * Whether `user` is an admin under this policy. A user read from a plugin credential (an API key) is not, unless
 * `allowApiKeys`; a restricted one then only through the RBAC checks, which honour the key's restriction.
 */
export function isAdmin(auth: AuthInternals, o: AdminPolicy, user: User): boolean {
  if (isPluginCredential(user) && !o.allowApiKeys) return false;
  if (o.permission !== undefined) return auth.rbac?.hasPermission(user, o.permission) ?? false;
  const defined = o.adminRoles.filter((role) => auth.rbac?.roles.has(role));
  if (credentialLimits(user).length > 0) return defined.length > 0 && auth.rbac!.hasRole(user, defined);
  const held = new Set([user.role, ...(user.roles ?? [])].filter((r): r is string => typeof r === 'string'));
  if (o.adminRoles.some((role) => held.has(role))) return true;
  return defined.length > 0 && auth.rbac!.hasRole(user, defined);
}

/**
 * The signed-in admin (session cookie only, confirmed against storage).
 * @throws AuthError `UNAUTHENTICATED` (401) without a session, `API_KEY_NOT_ALLOWED` (403) for a request presenting
 *   an API key instead, `FORBIDDEN` (403) for anyone else, also for an admin while impersonating.
 */
export async function requireAdmin(ctx: RouteContext, o: AdminPolicy): Promise<Caller> {
  const caller = await cookieCaller(ctx, 'The admin routes');
  if (caller.impersonatedBy !== undefined || !isAdmin(ctx.auth, o, caller.user))
    throw authError('FORBIDDEN', "You don't have access");
  return caller;
}
