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
import type { RouteContext } from './context.js';

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
  const kept = (a: { provider: string; providerAccountId: string }) =>
    keep !== null && a.provider === keep.provider && a.providerAccountId === keep.providerAccountId;
  let accounts = 0;
  for (const account of await adapter.listAccounts(stored.id)) {
    if (kept(account)) continue;
    await adapter.unlinkAccount({ provider: account.provider, providerAccountId: account.providerAccountId });
    accounts++;
  }
  let passkeys = 0;
  for (const authenticator of await adapter.listAuthenticators(stored.id)) {
    if (await adapter.deleteAuthenticator(stored.id, authenticator.credentialId)) passkeys++;
  }
  // Database sessions are deleted (and counted); JWT sessions end through the session version.
  const sessions = await ctx.auth.strategy.revokeUser(stored.id);
  // Plugins drop what they keep for the user (API keys, second factors).
  for (const reset of ctx.auth.hooks.credentialsReset) await reset(stored.id);
  await adapter.updateUser(stored.id, { emailVerified: new Date() });
  if (accounts + passkeys + sessions > 0) {
    ctx.auth.logger.warn(
      `[auth] security event credentials-reset-on-email-proof: user ${stored.id} proved their email through ${keep?.provider ?? 'an email link'}; ` +
        `removed ${accounts} unverified sign-in method(s) and ${passkeys} passkey(s), revoked ${sessions} session(s)`,
    );
  }
}
