/**
 * The user an admin action is about: `userId` from the body, stored, and never the admin themself.
 * @module
 * @internal
 */
import { AuthError } from '../../errors.js';
import type { RouteContext } from '../../contract/types.js';
import { storageOf, type Caller } from '../../routes/account/signed-in.js';
import type { AdapterUser } from '../../storage/types.js';

/**
 * @throws AuthError `INVALID_REQUEST` (400) without a `userId` or for the caller's own id; `USER_NOT_FOUND` (404).
 */
export async function targetUser(ctx: RouteContext, caller: Caller): Promise<AdapterUser> {
  const userId = ctx.body.userId;
  if (!userId || userId.length > 255)
    throw new AuthError('`userId` is required', { code: 'INVALID_REQUEST', status: 400 });
  if (userId === caller.user.id)
    throw new AuthError('Admins cannot do this to their own account', { code: 'INVALID_REQUEST', status: 400 });
  const user = await storageOf(ctx).getUser(userId);
  if (!user) throw new AuthError('No such user', { code: 'USER_NOT_FOUND', status: 404 });
  return user;
}
