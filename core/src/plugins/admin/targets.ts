/**
 * The user an admin action is about: `userId` from the body, stored, and never the admin themself.
 * @module
 * @internal
 */
import { authError } from '../../errors/auth-error.js';
import type { RouteContext } from '../../contract/types.js';
import { storageOf, type Caller } from '../../routes/account/signed-in.js';
import type { AdapterUser } from '../../storage/types.js';

/**
 * @throws AuthError `INVALID_REQUEST` (400) without a `userId` or for the caller's own id; `USER_NOT_FOUND` (404).
 */
export async function targetUser(ctx: RouteContext, caller: Caller): Promise<AdapterUser> {
  const userId = ctx.body.userId;
  if (!userId || userId.length > 255) throw authError('INVALID_REQUEST', '`userId` is required');
  if (userId === caller.user.id) throw authError('INVALID_REQUEST', 'Admins cannot do this to their own account');
  const user = await storageOf(ctx).getUser(userId);
  if (!user) throw authError('USER_NOT_FOUND');
  return user;
}
