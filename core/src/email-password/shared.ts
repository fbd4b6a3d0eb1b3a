/**
 * What the email-and-password routes share: their dependencies, the neutral answer, form pages, quiet mail
 * sending and the new-password check.
 * @internal
 * @module
 */
import { badRequest } from '../errors.js';
import { authError } from '../errors/auth-error.js';
import type { PasswordAccounts } from '../password-accounts.js';
import type { ActionResult, RouteContext } from '../contract/types.js';
import { csrfFor, resolveCallbackUrl } from '../routes/helpers.js';
import { emailedLinkUrl } from '../links/emailed-link.js';
import { storageOf } from '../routes/account/signed-in.js';
import type { User } from '../types.js';
import { VERIFICATION_TTL, type ResolvedEmailAndPassword } from './options.js';
import { issueLinkToken } from './tokens.js';
import { checkEmailPage } from './pages.js';
import { coreMessages } from '../i18n/core/index.js';

/** Everything the routes share. */
export interface EmailPasswordDeps {
  options: ResolvedEmailAndPassword;
  /** The password accounts over the auth's adapter (set when `createAuth` initialises the plugin). */
  readonly passwords: PasswordAccounts;
}

/** 400 `TOKEN_INVALID`: a link that is malformed, used, expired or meant for something else. */
export const tokenInvalid = () => authError('TOKEN_INVALID');

/** The neutral answer of the routes that must not tell known addresses from unknown ones: the same bytes either way. */
export function neutral(ctx: RouteContext, what: 'verify' | 'reset' | 'change'): ActionResult {
  if (ctx.wantsJson) return { status: 200, json: { ok: true } };
  return {
    status: 200,
    html: checkEmailPage({ t: coreMessages.for(ctx), basePath: ctx.auth.config.basePath, what }),
    headers: { 'cache-control': 'no-store' },
  };
}

/** A form page with a fresh CSRF token. */
export async function page(
  ctx: RouteContext,
  render: (csrfToken: string, callbackUrl: string) => string,
): Promise<ActionResult> {
  const { token, cookie } = await csrfFor(ctx);
  const callbackUrl = await resolveCallbackUrl(ctx, ctx.url.searchParams.get('callbackUrl'));
  return {
    status: 200,
    html: render(token, callbackUrl),
    cookies: cookie ? [cookie] : [],
    headers: { 'cache-control': 'no-store', 'referrer-policy': 'same-origin' },
  };
}

/**
 * Runs a mail hook without letting its failure (or its timing) reach the client; failures are logged without
 * details.
 */
export function sendQuietly(ctx: RouteContext, what: string, send: () => Promise<void> | void): void {
  Promise.resolve()
    .then(send)
    .catch((error: unknown) =>
      ctx.auth.logger.error(`[auth] ${what} threw: ${error instanceof Error ? error.name : typeof error}`),
    );
}

/**
 * Checks a new password against `minPasswordLength` / `maxPasswordLength` (characters).
 * @throws AuthError `INVALID_REQUEST` (400).
 */
export function newPassword(o: ResolvedEmailAndPassword, value: unknown): string {
  if (typeof value !== 'string' || [...value].length < o.minPasswordLength)
    throw badRequest(`Password must be at least ${o.minPasswordLength} characters`);
  if ([...value].length > o.maxPasswordLength)
    throw badRequest(`Password must be at most ${o.maxPasswordLength} characters`);
  return value;
}

/**
 * {@link newPassword}, then every plugin's `checkNewPassword` hook (`haveIBeenPwned()`): the one gate a new
 * password passes on sign-up, reset and change, before anything is hashed or stored.
 * @throws AuthError `INVALID_REQUEST` (400), or a hook's refusal (`PASSWORD_BREACHED`).
 */
export async function acceptNewPassword(
  ctx: RouteContext,
  o: ResolvedEmailAndPassword,
  value: unknown,
): Promise<string> {
  const password = newPassword(o, value);
  for (const check of ctx.auth.hooks.checkNewPassword) await check(password, ctx);
  return password;
}

/** Sends the verification link of the user's own address. */
export async function sendVerification(
  ctx: RouteContext,
  deps: EmailPasswordDeps,
  user: User,
  email: string,
  callbackUrl: string,
): Promise<void> {
  const send = deps.options.sendVerificationEmail;
  if (!send) return;
  const token = await issueLinkToken(storageOf(ctx), 'verify-email', user.id, email, VERIFICATION_TTL, ctx.auth.clock);
  const params: Record<string, string> = { token };
  if (callbackUrl !== '/') params.callbackUrl = callbackUrl;
  const mail = { user, url: emailedLinkUrl(ctx, 'verify-email', params), token, email };
  await ctx.auth.deliver({ kind: 'verify-email', channel: 'email', to: email, url: mail.url, token, data: mail }, () =>
    send(mail),
  );
}
