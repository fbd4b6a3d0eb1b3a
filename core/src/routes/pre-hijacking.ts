/**
 * The account pre-hijacking defence (Sudhodanan & Paverd, "Pre-hijacked
 * accounts", USENIX Security 2022; OWASP ASVS V2/V6): someone registers a
 * victim's email (a password, a passkey, a linked account) without proving
 * it; when the victim later proves the email through another channel (a
 * magic link, or an OAuth provider trusted to verify emails: `trustEmail`),
 * every credential set while the email was unverified is removed and the
 * user's sessions are revoked, so the attacker's way in is gone. The
 * password-reset route calls this too (a reset link proves the email);
 * `passwordAccounts().setPassword` alone only revokes sessions.
 *
 * Only an unverified email is reset: once verified, a reset or magic link
 * removes nothing. Plugins that keep a second factor refuse to enrol an
 * unverified email (`twoFactor()`: 403 `EMAIL_NOT_VERIFIED`), so the second
 * factors met here were all stored while the email was unverified (by a
 * pre-hijacker, or before that rule): mailbox access alone never removes the
 * second factor of a user who enrolled.
 * @internal
 * @module
 */
import type { Account, User } from '../types.js';
import type { RouteContext } from '../contract/types.js';

/**
 * On the first proof of `user`'s email: unless the stored user's email is
 * verified already, removes every linked account except `keep` (the one
 * signing in now; this includes the password, kept on a `credentials`
 * account), every passkey, every session and what plugins keep for the user
 * (their `credentialsReset` hooks: API keys, …), then marks the email
 * verified. Logs a security event (ids and counts only) when anything was
 * removed.
 */
export async function resetCredentialsOnFirstProof(ctx: RouteContext, user: User, keep: Account | null): Promise<void> {
  const adapter = ctx.auth.adapter;
  if (!adapter) return;
  const stored = await adapter.getUser(user.id);
  if (!stored || stored.emailVerified) return;
  const removed = await removeEveryCredential(ctx, stored.id, keep);
  await adapter.updateUser(stored.id, { emailVerified: new Date(ctx.auth.clock.now()) });
  if (removed.accounts + removed.passkeys + removed.sessions > 0) {
    ctx.auth.logger.warn(
      `[auth] security event credentials-reset-on-email-proof: user ${stored.id} proved their email through ${keep?.provider ?? 'an email link'}; ` +
        `removed ${removed.accounts} unverified sign-in method(s) and ${removed.passkeys} passkey(s), revoked ${removed.sessions} session(s)`,
    );
  }
}

/**
 * Removes every way into a user's account but `keep`: each linked account (the password, kept on a `credentials`
 * account, included), each passkey, each session (database rows deleted; JWT sessions end through the session
 * version), and what plugins keep for the user (their `credentialsReset` hooks: API keys, second factors, trusted
 * browsers). For the first proof of an email, and for the undo of an email change (someone else held the account).
 * @returns how many accounts, passkeys and sessions were removed.
 */
export async function removeEveryCredential(
  ctx: RouteContext,
  userId: string,
  keep: Account | null,
): Promise<{ accounts: number; passkeys: number; sessions: number }> {
  const adapter = ctx.auth.adapter!;
  const kept = (a: { provider: string; providerAccountId: string }) =>
    keep !== null && a.provider === keep.provider && a.providerAccountId === keep.providerAccountId;
  let accounts = 0;
  for (const account of await adapter.listAccounts(userId)) {
    if (kept(account)) continue;
    await adapter.unlinkAccount({ provider: account.provider, providerAccountId: account.providerAccountId });
    accounts++;
  }
  let passkeys = 0;
  for (const authenticator of await adapter.listAuthenticators(userId)) {
    if (await adapter.deleteAuthenticator(userId, authenticator.credentialId)) passkeys++;
  }
  const sessions = await ctx.auth.strategy.revokeUser(userId);
  for (const reset of ctx.auth.hooks.credentialsReset) await reset(userId);
  return { accounts, passkeys, sessions };
}
