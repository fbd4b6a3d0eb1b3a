/**
 * Email change: `POST /email/change` (signed in, with the password or a fresh sign-in) mails a link to the new
 * address; the link's page confirms it by a POST made while signed in to the same account; the old address then
 * gets a notice whose link undoes the change (`/email/change/undo`). Every link goes through
 * `emailedLinkRoute`, so GET and HEAD never use one up.
 * @internal
 * @module
 */
import { badRequest } from '../errors.js';
import { authError } from '../errors/auth-error.js';
import { confirmLinkPage, emailedLinkRoute, emailedLinkUrl, type LinkForm } from '../links/emailed-link.js';
import type { Action, PluginRoute, ActionResult, RouteContext, RouteRateLimit } from '../contract/types.js';
import { confirmHolder } from '../routes/account/confirm-holder.js';
import { deleteAccountLimit } from '../routes/account/delete.js';
import { notSupported, signedInAsSelf, storageOf } from '../routes/account/signed-in.js';
import { parseEmailAddress } from '../input/text.js';
import { emit } from '../routes/emit.js';
import { resolveCallbackUrl } from '../routes/helpers.js';
import { StorageConflictError } from '../storage/types.js';
import type { User } from '../types.js';
import { neutral, sendQuietly, tokenInvalid, type EmailPasswordDeps } from './shared.js';
import { consumeLinkToken, issueLinkToken, userIdOf, withdrawLinkTokens } from './tokens.js';
import { RESET_TTL, VERIFICATION_TTL } from './options.js';
import { removeEveryCredential } from '../routes/pre-hijacking.js';
import { coreMessages } from '../i18n/core/index.js';

const emailTaken = () => authError('EMAIL_TAKEN');

/** 403 `LINK_ACCOUNT_MISMATCH`: the link belongs to another account than the signed-in one. */
const otherAccount = () =>
  authError('LINK_ACCOUNT_MISMATCH', 'This link belongs to another account: sign in to that account to use it');

/** Mails the confirmation link of an email change to `newEmail`. */
export async function sendChangeLink(
  ctx: RouteContext,
  deps: EmailPasswordDeps,
  user: User,
  newEmail: string,
  callbackUrl: string,
): Promise<void> {
  const send = deps.options.sendVerificationEmail!;
  const token = await issueLinkToken(
    storageOf(ctx),
    'change-email',
    user.id,
    newEmail,
    VERIFICATION_TTL,
    ctx.auth.clock,
  );
  const params: Record<string, string> = { token, email: newEmail };
  if (callbackUrl !== '/') params.callbackUrl = callbackUrl;
  const mail = { user, url: emailedLinkUrl(ctx, 'verify-email', params), token, email: newEmail };
  await ctx.auth.deliver(
    { kind: 'verify-email', channel: 'email', to: newEmail, url: mail.url, token, data: mail },
    () => send(mail),
  );
}

/**
 * A password sent to `/email/change` is a guess on the login limiter (per IP and per session, as for
 * `/account/delete`); without one, the mail limiter counts the request per IP and per new address.
 */
export function changeEmailLimit(ctx: RouteContext): RouteRateLimit | undefined {
  const guess = deleteAccountLimit(ctx);
  if (guess) return guess;
  const limiter = ctx.auth.limiters.emailVerification;
  return limiter ? { limiter, mode: 'count', identifier: ctx.body.newEmail ?? '' } : undefined;
}

/**
 * `POST /email/change` (signed in as oneself; `newEmail`, and `password` unless the sign-in is fresher than
 * `session.freshAge`): a link to the new address. A taken address gets the same answer and no mail.
 * @throws AuthError `NOT_SUPPORTED` (400) without `sendVerificationEmail` and `sendEmailChangeNotice`;
 *   `SESSION_NOT_FRESH` (403); `INVALID_CREDENTIALS` (401); `INVALID_REQUEST` (400).
 */
export function changeEmailAction(deps: EmailPasswordDeps): Action {
  return async (ctx) => {
    const o = deps.options;
    if (!o.sendVerificationEmail || !o.sendEmailChangeNotice)
      throw notSupported('Email change needs sendVerificationEmail and sendEmailChangeNotice');
    const caller = await signedInAsSelf(ctx);
    const newEmail = parseEmailAddress(ctx.body.newEmail);
    if (!newEmail) throw badRequest('Enter a valid email address');
    if (newEmail === caller.user.email?.toLowerCase()) throw badRequest('This is your current address');
    await confirmHolder(ctx, caller, 'Enter your password (or sign in again) to change your email address');
    const callbackUrl = await resolveCallbackUrl(ctx, ctx.body.callbackUrl);
    // A taken address gets the same answer and no mail, so this route cannot probe for accounts.
    if (!(await storageOf(ctx).getUserByEmail(newEmail)))
      await sendChangeLink(ctx, deps, caller.user, newEmail, callbackUrl);
    return ctx.wantsJson
      ? { status: 200, json: { ok: true }, cookies: caller.cookies }
      : { ...neutral(ctx, 'change'), cookies: caller.cookies };
  };
}

/**
 * The POST of an email-change link (`token`, `email` = the new address): only the account's holder, signed in
 * to it, completes the change, so neither a scanner nor the owner of the new mailbox can attach that address to
 * someone else's account. The old address gets the notice with the undo link.
 * @throws AuthError `UNAUTHENTICATED` (401), `LINK_ACCOUNT_MISMATCH` (403), `TOKEN_INVALID` (400),
 *   `EMAIL_TAKEN` (409).
 */
export async function confirmEmailChange(
  ctx: RouteContext,
  deps: EmailPasswordDeps,
  token: string,
  newEmail: string,
): Promise<ActionResult> {
  const caller = await signedInAsSelf(ctx);
  if (caller.user.id !== userIdOf(token)) throw otherAccount();
  const adapter = storageOf(ctx);
  const user = await adapter.getUser(caller.user.id);
  if (!user || !(await consumeLinkToken(adapter, 'change-email', token, newEmail, ctx.auth.clock)))
    throw tokenInvalid();
  // Other pending changes (to other addresses) are withdrawn: one confirmed change at a time.
  await withdrawLinkTokens(adapter, 'change-email', user.id);
  try {
    await adapter.updateUser(user.id, { email: newEmail, emailVerified: new Date(ctx.auth.clock.now()) });
  } catch (error) {
    if (error instanceof StorageConflictError) throw emailTaken();
    throw error;
  }
  ctx.auth.logger.warn(`[auth] security event email-changed: user ${user.id}`);
  const old = user.email;
  const notify = deps.options.sendEmailChangeNotice;
  if (old && notify) {
    const ttl = deps.options.emailChangeUndoTtl;
    const undo = await issueLinkToken(adapter, 'undo-email-change', user.id, old, ttl, ctx.auth.clock);
    const url = emailedLinkUrl(ctx, 'email/change/undo', { token: undo, email: old });
    const expires = new Date(ctx.auth.clock.now() + ttl * 1000);
    const changed = { ...user, email: newEmail };
    const notice = { user: changed, url, token: undo, email: old, newEmail, expires };
    sendQuietly(ctx, 'sendEmailChangeNotice', () =>
      ctx.auth.deliver(
        { kind: 'email-change-notice', channel: 'email', to: old, url, token: undo, expiresAt: expires, data: notice },
        () => notify(notice),
      ),
    );
  }
  await emit(ctx, 'onEmailChanged', { user: { ...user, email: newEmail }, from: old, to: newEmail });
  const callbackUrl = await resolveCallbackUrl(ctx, ctx.body.callbackUrl);
  return ctx.wantsJson
    ? { status: 200, json: { ok: true, url: callbackUrl }, cookies: caller.cookies }
    : { status: 303, redirect: callbackUrl, cookies: caller.cookies };
}

/**
 * `POST /email/change/undo` (`token`, `email` = the old address), from the notice's link: the person at the old
 * address takes the account back from whoever changed it. Needs no session (that person may no longer be able to
 * sign in).
 * - The old address is put back, verified (the link proved it), whatever the account's address is now. An
 *   unverified account that took the address meanwhile loses it (as in the pre-hijacking defence); a verified one
 *   answers 409 `EMAIL_TAKEN` and the link stays usable.
 * - The undo links of later changes, and every pending change link, are withdrawn, so whoever made those changes
 *   cannot take the account back with their own undo link.
 * - Every way in is removed (password, linked accounts, passkeys, sessions, API keys, second factors: whoever
 *   changed the address may have added their own), and the browser goes on to choose a new password through a
 *   fresh reset link.
 * @throws AuthError `TOKEN_INVALID` (400), `EMAIL_TAKEN` (409).
 */
async function undoEmailChange(ctx: RouteContext): Promise<ActionResult> {
  const adapter = storageOf(ctx);
  const token = ctx.body.token ?? '';
  const old = parseEmailAddress(ctx.body.email);
  const userId = userIdOf(token);
  const user = userId ? await adapter.getUser(userId) : null;
  if (!user || !old) throw tokenInvalid();
  // Checked before the token is used, so a refusal leaves the link working.
  const holder = await adapter.getUserByEmail(old);
  const squatter = holder && holder.id !== user.id ? holder : null;
  if (squatter?.emailVerified) throw emailTaken();
  const used = await consumeLinkToken(adapter, 'undo-email-change', token, old, ctx.auth.clock);
  if (!used) throw tokenInvalid();
  await withdrawLinkTokens(adapter, 'undo-email-change', user.id, used.expires);
  await withdrawLinkTokens(adapter, 'change-email', user.id);
  if (squatter) {
    await adapter.updateUser(squatter.id, { email: null });
    await ctx.auth.strategy.revokeUser(squatter.id);
    ctx.auth.logger.warn(
      `[auth] security event unverified-address-reclaimed: user ${squatter.id} lost an address it never proved`,
    );
  }
  try {
    await adapter.updateUser(user.id, { email: old, emailVerified: new Date(ctx.auth.clock.now()) });
  } catch (error) {
    if (error instanceof StorageConflictError) throw emailTaken();
    throw error;
  }
  const removed = await removeEveryCredential(ctx, user.id, null);
  ctx.auth.logger.warn(
    `[auth] security event email-change-undone: user ${user.id}; removed ${removed.accounts} sign-in method(s) and ${removed.passkeys} passkey(s), revoked ${removed.sessions} session(s)`,
  );
  await emit(ctx, 'onEmailChanged', { user: { ...user, email: old }, from: user.email, to: old });
  const reset = await issueLinkToken(adapter, 'password-reset', user.id, old, RESET_TTL, ctx.auth.clock);
  const url = emailedLinkUrl(ctx, 'password/reset', { token: reset });
  return ctx.wantsJson ? { status: 200, json: { ok: true, url } } : { status: 303, redirect: url };
}

/** The route of the undo link in the notice. */
export const undoEmailChangeRoute: PluginRoute = emailedLinkRoute({
  params: ['token', 'email'],
  check: (_ctx, params) => {
    if (!userIdOf(params.token) || !parseEmailAddress(params.email)) throw tokenInvalid();
  },
  page: (ctx, form: LinkForm) => {
    const t = coreMessages.for(ctx);
    return confirmLinkPage({
      title: t('undoEmailChange.title'),
      message: t('undoEmailChange.text', { email: form.params.email! }),
      button: t('undoEmailChange.button'),
      form,
      lang: t.lang,
    });
  },
  use: undoEmailChange,
});
