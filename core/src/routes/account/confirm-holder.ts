/**
 * Proof that the caller of a sensitive account route is the account holder now, not just someone holding the
 * session cookie: the password, or a recent sign-in.
 * @internal
 * @module
 */
import { authError } from '../../errors/auth-error.js';
import { verifyPassword } from '../../password.js';
import type { RouteContext } from '../../contract/types.js';
import { storageOf, type Caller } from './signed-in.js';

/** The argon2 hash of the user's password, if they have one. */
export async function passwordHashOf(ctx: RouteContext, userId: string): Promise<string | undefined> {
  const accounts = await storageOf(ctx).listAccounts(userId);
  return accounts.find((a) => a.type === 'credentials' && a.passwordHash)?.passwordHash ?? undefined;
}

/**
 * Checks `ctx.body.password` with argon2 when sent, else that the session signed in within `session.freshAge`.
 * A password counts on the route's rate-limit attempt (failure or success).
 * @throws AuthError `INVALID_CREDENTIALS` (401) for a wrong password (or one sent for an account without
 *   password); `SESSION_NOT_FRESH` (403) without a password when the sign-in is older than `freshAge`, with
 *   `staleMessage`.
 */
export async function confirmHolder(ctx: RouteContext, caller: Caller, staleMessage: string): Promise<void> {
  const { password } = ctx.body;
  if (password) {
    const hash = await passwordHashOf(ctx, caller.user.id);
    if (!hash || !(await verifyPassword(password, hash))) {
      await ctx.attempt?.failed();
      throw authError('INVALID_CREDENTIALS', 'Wrong password');
    }
    await ctx.attempt?.succeeded();
    return;
  }
  const age = caller.authTime ? ctx.auth.clock.now() - caller.authTime.getTime() : Number.POSITIVE_INFINITY;
  if (age > ctx.auth.config.session.freshAge * 1000) {
    throw authError('SESSION_NOT_FRESH', staleMessage);
  }
}
