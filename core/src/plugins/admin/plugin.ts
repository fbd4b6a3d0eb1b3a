/**
 * `admin()`: user management, bans and impersonation on the plugin surface.
 * @module
 */
import { AuthConfigError } from '../../errors.js';
import { ADMIN_ERRORS } from './errors.js';
import type { AuthPlugin } from '../../contract/types.js';
import type { ErrorCodesOf } from '../../errors/define.js';
import { isAdmin } from './access.js';
import { signedOutOfImpersonation } from './impersonation.js';
import { preloadSealing } from '../../http/sealed.js';
import { resolveAdminOptions, type AdminOptions, type ResolvedAdminOptions } from './options.js';
import { adminRoutes } from './routes.js';
import type { AdminStorage, BanRecord } from './types.js';
import { activeBan } from './users.js';
import { credentialRefused } from '../credential.js';
import type { User } from '../../types.js';
import { systemClock, type AuthClock } from '../../clock.js';

/** `auth.extensions.admin`. */
export interface AdminExtension {
  /** The ban storage. */
  readonly storage: AdminStorage;
  /** The ban in force for `userId`, or null. */
  activeBan(userId: string): Promise<BanRecord | null>;
  /**
   * Whether `user` counts as an admin under the plugin's options. A user read from an API key (any plugin-read
   * credential) is never one unless `allowApiKeys`, and then only when the key covers the admin role (see
   * `restrictPermissions`).
   */
  isAdmin(user: User): boolean;
}

/**
 * The admin API: user management, bans and impersonation, for users with an admin role (default `admin`) or an
 * RBAC `permission`. Every action is checked server-side against the stored user; a session that is itself an
 * impersonation is never an admin. Routes under `basePath` (JSON, or the no-JS page at `GET /admin`; POSTs are
 * CSRF-checked; a failure answers the stable codes below):
 *
 * - `GET /admin/users?search=&limit=&after=`: `{users, next}`, one page (1–100, default 20) in id order, searched
 *   by email or name in storage (`StorageAdapter.listUsers`, keyset pagination). Each user carries `banned`.
 * - `POST /admin/users/create {email, name?, password?, role?, emailVerified?}` (`EMAIL_TAKEN` 409).
 * - `POST /admin/users/set-role {userId, role}`: the user's JWT sessions end at their next check; with
 *   `createAuth({ rbac })` the role must be defined.
 * - `POST /admin/users/ban {userId, reason?, expiresIn?}` (seconds; none = until unbanned): revokes every session,
 *   and every later sign-in of the user (any provider) answers 403 `USER_BANNED`; their API keys (any credential a
 *   plugin reads per request) answer 401 `CREDENTIAL_REFUSED` from the next request on, and work again once the ban
 *   ends. `POST /admin/users/unban {userId}`.
 * - `POST /admin/users/revoke-sessions {userId}` → `{revoked}`; `POST /admin/users/remove {userId}` (as an account
 *   deletion: 409 `LAST_OWNER`, nothing removed, while the user is an organization's only owner).
 * - `POST /admin/impersonate {userId}`: a new session acting as the user, marked `session.impersonatedBy` (the
 *   database row, or the JWT `act` claim of RFC 8693 §4.1), lasting `impersonationMaxAge` (default 3600 s) and
 *   never sliding. The admin's own session is kept in a sealed HttpOnly cookie. Another admin cannot be
 *   impersonated unless `allowImpersonatingAdmins` (403 `CANNOT_IMPERSONATE_ADMIN`).
 * - `POST /admin/stop-impersonating`: ends it and restores the admin's session (`{restored}`); 400
 *   `NOT_IMPERSONATING` from an ordinary session. `POST /signout` during an impersonation ends both sessions and
 *   clears the sealed cookie.
 *
 * An admin cannot target their own account (400 `INVALID_REQUEST`); an unknown `userId` is 404 `USER_NOT_FOUND`;
 * a non-admin gets 403 `FORBIDDEN`. Events: `onUserCreated`, `onUserRoleSet`, `onUserBanned`, `onUserUnbanned`,
 * `onUserSessionsRevoked`, `onUserRemoved`, `onImpersonationStarted`, `onImpersonationStopped`.
 *
 * @throws AuthConfigError (`INVALID_CONFIG`) at `createAuth` without `adapter`, or for bad options.
 * @example
 * ```ts
 * import { admin, createSqlAdminStorage } from '@framework/auth/plugins/admin';
 *
 * const auth = createAuth({ ...config, plugins: [admin({ storage: createSqlAdminStorage(db) })] });
 * await auth.migrate();
 * // POST /auth/admin/users/ban {userId, reason: 'spam', expiresIn: 86400} → their next sign-in: 403 USER_BANNED
 * // POST /auth/admin/impersonate {userId} → session.impersonatedBy === admin.id; POST /auth/admin/stop-impersonating
 * ```
 */
export function admin(
  options: AdminOptions = {},
): AuthPlugin<'admin', AdminExtension, Record<never, never>, ErrorCodesOf<typeof ADMIN_ERRORS>> {
  const o: ResolvedAdminOptions = resolveAdminOptions(options);
  let clock: AuthClock = systemClock;
  return {
    id: 'admin',
    errorCodes: ADMIN_ERRORS,
    init(auth) {
      clock = auth.clock;
      if (!auth.adapter)
        throw new AuthConfigError('Invalid auth config: admin() needs `adapter` (it manages stored users)');
      o.bindStorage(auth.adapter);
      preloadSealing(); // impersonation seals the admin's own session
      return {
        storage: o.storage,
        activeBan: (userId) => activeBan(o.storage, userId, new Date(auth.clock.now())),
        isAdmin: (user) => isAdmin(auth, o, user),
      };
    },
    routes: adminRoutes(o),
    hooks: {
      async beforeSession(ctx, subject) {
        if (subject.user.id && (await activeBan(o.storage, subject.user.id, new Date(ctx.auth.clock.now()))))
          throw ADMIN_ERRORS.error('USER_BANNED');
        return undefined;
      },
      // Credentials a plugin reads on each request (API keys) never sign in: the ban is checked on every read.
      async checkCredential({ user }) {
        if (user.id && (await activeBan(o.storage, user.id, new Date(clock.now()))))
          throw credentialRefused('This account is suspended');
      },
      async userDeleted(userId) {
        await o.storage.removeBan(userId);
      },
      signedOut: signedOutOfImpersonation,
    },
    migrate: () => o.storage.migrate(),
  };
}
