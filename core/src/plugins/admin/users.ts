/**
 * The user routes of `admin()`: list and search, create, set role, ban and unban, revoke sessions, remove.
 * @module
 * @internal
 */
import { authError } from '../../errors/auth-error.js';
import { passwordAccounts } from '../../password-accounts.js';
import { parseDisplayName, parseEmailAddress, USER_NAME_MAX_LENGTH } from '../../input/text.js';
import type { RouteContext } from '../../contract/types.js';
import { removeStoredUser } from '../../routes/account/remove-user.js';
import { storageOf, type Caller } from '../../routes/account/signed-in.js';
import { emit } from '../../routes/emit.js';
import { StorageConflictError, type AdapterUser, type UserPage } from '../../storage/types.js';
import type { ResolvedAdminOptions } from './options.js';
import { targetUser } from './targets.js';
import type { AdminStorage, BanRecord } from './types.js';
import type { AdminUser } from '@framework/auth-client/plugins/admin';

const ROLE = /^[A-Za-z0-9_.:-]{1,64}$/;
const invalid = (message: string) => authError('INVALID_REQUEST', message);

/** The ban in force for `userId` at `now`, or null (an expired ban is lifted on the way). */
export async function activeBan(storage: AdminStorage, userId: string, now: Date): Promise<BanRecord | null> {
  const ban = await storage.getBan(userId);
  if (!ban) return null;
  if (ban.expiresAt && ban.expiresAt <= now) {
    await storage.removeBan(userId);
    return null;
  }
  return ban;
}

/** A user as the admin API shows it. */
export type AdminUserView = AdminUser;

/** The admin view of `user` with the ban in force at `now` (an expired `ban` shows as null). */
export function adminView(user: AdapterUser, ban: BanRecord | null | undefined, now: Date): AdminUserView {
  const live = ban && (!ban.expiresAt || ban.expiresAt > now) ? ban : null;
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    image: user.image,
    ...(user.role !== undefined ? { role: user.role } : {}),
    ...(user.roles !== undefined ? { roles: [...user.roles] } : {}),
    emailVerified: user.emailVerified ? user.emailVerified.toISOString() : null,
    banned: live
      ? { reason: live.reason, expiresAt: live.expiresAt?.toISOString() ?? null, bannedBy: live.bannedBy }
      : null,
  };
}

/** One page of users with their bans: `search`, `limit` (1–100, default 20) and `after` from the query string. */
export async function listUsers(
  ctx: RouteContext,
  o: ResolvedAdminOptions,
): Promise<{ page: UserPage; users: AdminUserView[] }> {
  const adapter = storageOf(ctx);
  if (!adapter.listUsers) throw authError('NOT_SUPPORTED', 'The storage adapter cannot list users');
  const params = ctx.url.searchParams;
  const search = params.get('search') ?? undefined;
  const limit = params.has('limit') ? Number(params.get('limit')) : undefined;
  const after = params.get('after') ?? undefined;
  // A search page's cursor holds the last matched email or name and id (StorageAdapter.listUsers).
  if ((search?.length ?? 0) > 200 || (after?.length ?? 0) > 2_048) throw invalid('`search` or `after` is too long');
  if (limit !== undefined && !(Number.isInteger(limit) && limit >= 1 && limit <= 100))
    throw invalid('`limit` must be a whole number from 1 to 100');
  const page = await adapter.listUsers({
    ...(search ? { search } : {}),
    ...(limit ? { limit } : {}),
    ...(after ? { after } : {}),
  });
  const bans = new Map((await o.storage.getBans(page.users.map((u) => u.id))).map((b) => [b.userId, b]));
  return { page, users: page.users.map((u) => adminView(u, bans.get(u.id), new Date(ctx.auth.clock.now()))) };
}

/**
 * `POST /admin/users/create {email, name?, password?, role?, emailVerified?}`. `email` and `name` go through the shared
 * parsers of `input/text.ts`.
 * @throws AuthError `INVALID_REQUEST` (400) for a malformed address, or a name with control, bidi or invisible
 *   characters or over 200 characters; `EMAIL_TAKEN` (409).
 */
export async function createUser(ctx: RouteContext, caller: Caller): Promise<AdapterUser> {
  const adapter = storageOf(ctx);
  const { email, name, password, role } = ctx.body;
  if (!email || parseEmailAddress(email) === null) throw invalid('A valid `email` is required');
  const displayName = parseDisplayName(name, { maxLength: USER_NAME_MAX_LENGTH });
  if (role !== undefined && role !== '' && !ROLE.test(role)) throw invalid('`role` is malformed');
  const fields = {
    ...(displayName ? { name: displayName } : {}),
    ...(role ? { role } : {}),
    ...(ctx.body.emailVerified === 'true' ? { emailVerified: new Date(ctx.auth.clock.now()) } : {}),
  };
  let user: AdapterUser;
  try {
    if (password) {
      // The app's password checks (a breached-password plugin) hold for a password an admin sets too.
      for (const check of ctx.auth.hooks.checkNewPassword) await check(password, ctx);
      const created = await passwordAccounts(adapter).register({ email: email.trim(), password, name: displayName });
      user = (await adapter.updateUser(created.id, fields)) ?? created;
    } else {
      user = await adapter.createUser({ email: email.trim().normalize('NFC'), ...fields });
    }
  } catch (error) {
    if (error instanceof StorageConflictError) throw authError('EMAIL_TAKEN');
    throw error;
  }
  await emit(ctx, 'onUserCreated', { user, admin: caller.user });
  return user;
}

/** `POST /admin/users/set-role {userId, role}`: the user's JWT sessions end at their next check. */
export async function setRole(ctx: RouteContext, caller: Caller): Promise<AdapterUser> {
  const target = await targetUser(ctx, caller);
  const role = ctx.body.role ?? '';
  if (!ROLE.test(role)) throw invalid('`role` is required: letters, digits, `_ . : -`, at most 64');
  if (ctx.auth.rbac && !ctx.auth.rbac.roles.has(role)) throw invalid(`Unknown role "${role}"`);
  const user = (await storageOf(ctx).updateUser(target.id, { role }))!;
  await emit(ctx, 'onUserRoleSet', { user, admin: caller.user, role });
  ctx.auth.logger.warn(`[auth] security event role-set: admin ${caller.user.id} set user ${user.id} to ${role}`);
  return user;
}

/** `POST /admin/users/ban {userId, reason?, expiresIn?}` (`expiresIn` in seconds): revokes every session. */
export async function banUser(ctx: RouteContext, o: ResolvedAdminOptions, caller: Caller): Promise<BanRecord> {
  const user = await targetUser(ctx, caller);
  const reason = ctx.body.reason?.trim().slice(0, 500) || null;
  const expiresIn = ctx.body.expiresIn ? Number(ctx.body.expiresIn) : undefined;
  if (expiresIn !== undefined && !(Number.isInteger(expiresIn) && expiresIn > 0 && expiresIn <= 10 * 365 * 86_400))
    throw invalid('`expiresIn` must be whole seconds, at most ten years');
  const now = new Date(ctx.auth.clock.now());
  const ban: BanRecord = {
    userId: user.id,
    reason,
    expiresAt: expiresIn === undefined ? null : new Date(now.getTime() + expiresIn * 1000),
    bannedBy: caller.user.id,
    createdAt: now,
  };
  await o.storage.setBan(ban);
  await ctx.auth.strategy.revokeUser(user.id);
  await emit(ctx, 'onUserBanned', { user, admin: caller.user, reason, expiresAt: ban.expiresAt });
  ctx.auth.logger.warn(`[auth] security event user-banned: admin ${caller.user.id} banned user ${user.id}`);
  return ban;
}

/** `POST /admin/users/unban {userId}`. */
export async function unbanUser(ctx: RouteContext, o: ResolvedAdminOptions, caller: Caller): Promise<AdapterUser> {
  const user = await targetUser(ctx, caller);
  if (await o.storage.removeBan(user.id)) await emit(ctx, 'onUserUnbanned', { user, admin: caller.user });
  return user;
}

/** `POST /admin/users/revoke-sessions {userId}`: returns how many database sessions ended (JWTs end too). */
export async function revokeSessions(ctx: RouteContext, caller: Caller): Promise<number> {
  const user = await targetUser(ctx, caller);
  const revoked = await ctx.auth.strategy.revokeUser(user.id);
  await emit(ctx, 'onUserSessionsRevoked', { user, admin: caller.user, revoked });
  return revoked;
}

/**
 * `POST /admin/users/remove {userId}`: as an account deletion ({@link removeStoredUser}: plugin
 * `beforeUserDelete` hooks, the `onDeleteUser` callback, `userDeleted` hooks, sessions, storage).
 * @throws AuthError 409 `LAST_OWNER` while the user is the only owner of an organization (`organizations()`);
 *   nothing is removed, as for the user's own deletion. The errors of {@link targetUser}.
 */
export async function removeUser(ctx: RouteContext, o: ResolvedAdminOptions, caller: Caller): Promise<void> {
  const user = await targetUser(ctx, caller);
  await removeStoredUser(ctx.auth, storageOf(ctx), user);
  await o.storage.removeBan(user.id);
  await emit(ctx, 'onUserRemoved', { user, admin: caller.user });
  ctx.auth.logger.warn(`[auth] security event user-removed: admin ${caller.user.id} removed user ${user.id}`);
}
