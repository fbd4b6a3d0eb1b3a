/**
 * Ending every session of a user, for both strategies at once.
 * @internal
 * @module
 */
import type { StorageAdapter } from '../storage/types.js';

/**
 * Ends every session of `userId`: bumps their session version (so each JWT
 * session ends at its next check, within `session.revalidateAge`) and
 * deletes their database sessions. Sign-out everywhere and `setPassword`
 * both come through here. Returns how many database sessions were deleted.
 */
export async function revokeUserSessions(adapter: StorageAdapter, userId: string): Promise<number> {
  await adapter.bumpSessionVersion(userId);
  return adapter.deleteUserSessions(userId);
}
