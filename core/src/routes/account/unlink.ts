/**
 * `POST /account/unlink` (`{providerId}`): removes the caller's linked
 * account(s) of that provider, unless that would leave no way to sign in.
 * @internal
 * @module
 */
import { badRequest } from '../../errors.js';
import { authError } from '../../errors/auth-error.js';
import type { AdapterAccount } from '../../storage/types.js';
import type { ActionResult, RouteContext } from '../../contract/types.js';
import { resolveCallbackUrl } from '../helpers.js';
import { done, signedInAsSelf, storageOf } from './signed-in.js';

/** Whether an account is a way to sign in: an OAuth/OIDC link, a passkey account, or a password that is set. */
function signsIn(account: AdapterAccount): boolean {
  return account.type === 'credentials' ? Boolean(account.passwordHash) : account.type !== 'email';
}

/**
 * Unlinks the accounts of `providerId` from the caller. The ways to sign in
 * that must remain at least one: a password, an OAuth/OIDC account, a
 * passkey, or (when an email provider is configured and the user has an
 * address) a magic link.
 * @throws AuthError `INVALID_REQUEST` (400) without `providerId`; `NOT_FOUND`
 *   (404) when the caller has no such account; `LAST_CREDENTIAL` (409) when it
 *   is the last way to sign in.
 */
export async function unlinkAccountAction(ctx: RouteContext): Promise<ActionResult> {
  const caller = await signedInAsSelf(ctx);
  const adapter = storageOf(ctx);
  const providerId = ctx.body.providerId?.trim();
  if (!providerId) throw badRequest('Send the `providerId` of the account to unlink');
  const accounts = await adapter.listAccounts(caller.user.id);
  const removing = accounts.filter((a) => a.provider === providerId);
  if (removing.length === 0) throw authError('NOT_FOUND', 'No such linked account');
  const user = await adapter.getUser(caller.user.id);
  const magicLink = Boolean(user?.email) && [...ctx.auth.providers.values()].some((p) => p.type === 'email');
  const passkeys = (await adapter.listAuthenticators(caller.user.id)).length;
  const others = accounts.filter((a) => a.provider !== providerId && signsIn(a)).length;
  if (others + passkeys === 0 && !magicLink) {
    throw authError('LAST_CREDENTIAL', 'This is your last way to sign in; add another before removing it');
  }
  for (const account of removing) await adapter.unlinkAccount(account);
  return done(ctx, { providerId }, await resolveCallbackUrl(ctx, ctx.body.callbackUrl), caller.cookies);
}
