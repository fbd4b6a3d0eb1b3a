/**
 * `@framework/auth-client/plugins/admin`: browser functions for every route of the server's `admin()` plugin. Each
 * resolves to an {@link AccountResult} and never rejects; a non-admin gets `error: 'FORBIDDEN'` (403).
 * @module
 */
import { authRequest, type AccountResult, type AuthClientOptions } from '@framework/auth-client';

/** A user as the admin API shows it. Times are ISO 8601 strings. */
export interface AdminUser {
  id: string;
  email: string | null;
  name: string | null;
  image: string | null;
  role?: string;
  roles?: string[];
  emailVerified: string | null;
  /** The ban in force, or null. */
  banned: { reason: string | null; expiresAt: string | null; bannedBy: string } | null;
}

/** One page of {@link listUsers}: pass `next` as `after` for the following page (null on the last). */
export interface AdminUserPage {
  users: AdminUser[];
  next: string | null;
}

/**
 * One page of users, searched by email or name in storage: `GET {basePath}/admin/users`.
 * @param query `limit` 1–100 (default 20); `after` is the previous page's `next`.
 * @example
 * ```ts
 * const { data } = await listUsers({ search: 'example.com', limit: 50 });
 * ```
 */
export const listUsers = (
  query?: { search?: string; limit?: number; after?: string },
  options?: AuthClientOptions,
): Promise<AccountResult<AdminUserPage>> => {
  const { search, limit, after } = query ?? {};
  const params = new URLSearchParams();
  if (search) params.set('search', search);
  if (limit !== undefined) params.set('limit', String(limit));
  if (after) params.set('after', after);
  const qs = params.toString();
  return authRequest<AdminUserPage>(`/admin/users${qs ? `?${qs}` : ''}`, options);
};

/**
 * Creates a user: `POST {basePath}/admin/users/create`.
 * @returns error `EMAIL_TAKEN` (409).
 * @example
 * ```ts
 * await createUser({ email: 'new@example.com', password: 'a-long-password', role: 'editor' });
 * ```
 */
export const createUser = (
  input: { email: string; name?: string; password?: string; role?: string; emailVerified?: boolean },
  options?: AuthClientOptions,
) => authRequest<{ user: AdminUser }>('/admin/users/create', options, input);

/**
 * Sets a user's role: `POST {basePath}/admin/users/set-role`.
 * @example
 * ```ts
 * await setUserRole({ userId, role: 'editor' });
 * ```
 */
export const setUserRole = (input: { userId: string; role: string }, options?: AuthClientOptions) =>
  authRequest<{ user: AdminUser }>('/admin/users/set-role', options, input);

/**
 * Bans a user and ends their sessions: `POST {basePath}/admin/users/ban`. `expiresIn` is in seconds (none: until
 * unbanned).
 * @example
 * ```ts
 * await banUser({ userId, reason: 'spam', expiresIn: 7 * 86400 });
 * ```
 */
export const banUser = (input: { userId: string; reason?: string; expiresIn?: number }, options?: AuthClientOptions) =>
  authRequest<{ userId: string; expiresAt: string | null }>('/admin/users/ban', options, input);

/**
 * Lifts a ban: `POST {basePath}/admin/users/unban`.
 * @example
 * ```ts
 * await unbanUser({ userId });
 * ```
 */
export const unbanUser = (input: { userId: string }, options?: AuthClientOptions) =>
  authRequest<{ userId: string }>('/admin/users/unban', options, input);

/**
 * Ends every session of a user: `POST {basePath}/admin/users/revoke-sessions`.
 * @example
 * ```ts
 * const { data } = await revokeUserSessions({ userId }); // data.revoked
 * ```
 */
export const revokeUserSessions = (input: { userId: string }, options?: AuthClientOptions) =>
  authRequest<{ revoked: number }>('/admin/users/revoke-sessions', options, input);

/**
 * Removes a user with their accounts and sessions: `POST {basePath}/admin/users/remove`.
 * @example
 * ```ts
 * await removeUser({ userId });
 * ```
 */
export const removeUser = (input: { userId: string }, options?: AuthClientOptions) =>
  authRequest('/admin/users/remove', options, input);

/**
 * Starts acting as a user: `POST {basePath}/admin/impersonate`. The session store refreshes (its session then
 * carries `impersonatedBy`).
 * @returns error `CANNOT_IMPERSONATE_ADMIN` (403).
 * @example
 * ```ts
 * await impersonateUser({ userId });
 * ```
 */
export const impersonateUser = (input: { userId: string }, options?: AuthClientOptions) =>
  authRequest<{ user: AdminUser; expires: string }>('/admin/impersonate', options, input, true);

/**
 * Ends an impersonation and restores the admin's session: `POST {basePath}/admin/stop-impersonating`.
 * @returns error `NOT_IMPERSONATING` (400).
 * @example
 * ```ts
 * const { data } = await stopImpersonating(); // data.restored
 * ```
 */
export const stopImpersonating = (options?: AuthClientOptions) =>
  authRequest<{ restored: boolean }>('/admin/stop-impersonating', options, {}, true);
