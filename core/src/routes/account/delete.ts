/**
 * `POST /account/delete`: deletes the caller's user with their accounts,
 * passkeys and sessions, after a fresh sign-in or the password.
 * @internal
 * @module
 */
import { readCookie } from '../../http/cookies.js';
import { confirmHolder } from './confirm-holder.js';
import type { ActionResult, RouteContext, RouteRateLimit } from '../../contract/types.js';
import { clearSessionCookie, resolveCallbackUrl } from '../helpers.js';
import { done, signedInAsSelf, storageOf } from './signed-in.js';
import { emit } from '../emit.js';
import { removeStoredUser } from './remove-user.js';

/** A password sent to `/account/delete` is a guess on the login limiter, per IP and per session. */
export function deleteAccountLimit(ctx: RouteContext): RouteRateLimit | undefined {
  const { login } = ctx.auth.limiters;
  if (!login || !ctx.body.password) return undefined;
  const cookie = readCookie(ctx.request.headers.get('cookie'), ctx.auth.config.cookies.sessionToken.name) ?? '';
  // The public half of a database session cookie; JWT sessions share the IP budget only.
  const id = ctx.auth.config.session.strategy === 'database' ? (cookie.split('.')[0] ?? '') : '';
  return { limiter: login, mode: 'attempt', identifier: id ? `session:${id}` : '' };
}

/**
 * Deletes the caller's account after {@link confirmHolder}, through {@link removeStoredUser}: every plugin's
 * `beforeUserDelete` hook may refuse first (409 `LAST_OWNER` while the caller is an organization's only owner:
 * nothing is deleted), then the `onDeleteUser` callback (an `AuthError` it throws stops the deletion), every
 * plugin's `userDeleted` hook, all sessions end (database rows deleted, the session version bumped for JWT
 * sessions), then the user with their accounts and passkeys. The session cookie is cleared.
 */
export async function deleteAccountAction(ctx: RouteContext): Promise<ActionResult> {
  const caller = await signedInAsSelf(ctx);
  const adapter = storageOf(ctx);
  await confirmHolder(ctx, caller, 'Sign in again, or enter your password, to delete your account');
  const userId = caller.user.id;
  const user = (await adapter.getUser(userId)) ?? caller.user;
  await removeStoredUser(ctx.auth, adapter, user);
  await emit(ctx, 'onAccountDeleted', { user });
  ctx.auth.logger.warn(`[auth] security event account-deleted: user ${userId}`);
  return done(ctx, {}, await resolveCallbackUrl(ctx, ctx.body.callbackUrl), [clearSessionCookie(ctx.auth)]);
}
