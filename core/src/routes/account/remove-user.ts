/**
 * Removing a stored user, the one sequence both `POST /account/delete` and `admin()`'s remove-user run.
 * @internal
 * @module
 */
import type { StorageAdapter } from '../../storage/types.js';
import type { User } from '../../types.js';
import type { AuthInternals } from '../../contract/types.js';
import { callUser } from '../helpers.js';

/**
 * Deletes `user` with their accounts, passkeys and sessions, in this order: every plugin's `beforeUserDelete`
 * hook (one that throws refuses the deletion; what earlier hooks changed is undone through the functions they
 * returned, e.g. `organizations()` restores the memberships it removed, and it answers 409 `LAST_OWNER` itself
 * for an organization's only owner), the `onDeleteUser` callback (an `AuthError` it throws stops the deletion too,
 * with the same undo), every
 * plugin's `userDeleted` hook, then all sessions end (database rows deleted, the session version bumped for JWT
 * sessions), then the user is removed from storage.
 * @throws AuthError from a `beforeUserDelete` hook or the `onDeleteUser` callback; storage errors as they are.
 */
export async function removeStoredUser(auth: AuthInternals, adapter: StorageAdapter, user: User): Promise<void> {
  // What the beforeUserDelete hooks changed, undone (latest first) when a later step refuses or fails.
  const undo: Array<() => Promise<void>> = [];
  try {
    for (const check of auth.hooks.beforeUserDelete) {
      const undoCheck = await check(user.id);
      if (typeof undoCheck === 'function') undo.unshift(undoCheck);
    }
    const onDeleteUser = auth.callbacks.onDeleteUser;
    if (onDeleteUser) await callUser(auth, 'onDeleteUser callback', () => onDeleteUser({ user }));
  } catch (error) {
    for (const step of undo) await step();
    throw error;
  }
  for (const hook of auth.hooks.userDeleted) await hook(user.id);
  await auth.strategy.revokeUser(user.id);
  await adapter.deleteUser(user.id);
}
