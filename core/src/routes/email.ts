/**
 * Email magic links: `POST /signin/email` sends the link; `GET
 * /callback/email?token=…&email=…` opens a confirmation page whose button
 * POSTs the token to `/callback/email`, which signs in. HEAD and GET never
 * consume a link (mail scanners and previews fetch links).
 * @internal
 * @module
 */
import { AuthError, badRequest } from '../errors.js';
import { authError } from '../errors/auth-error.js';
import { randomString, sha256Hex } from '../crypto.js';
import type { EmailProvider } from '../providers/email-types.js';
import type { SignInFlow } from '../providers/flow.js';
import { pageErrorCode } from '../pages/messages.js';
import type { ActionResult, RouteContext } from '../contract/types.js';
import { errorResult, resolveCallbackUrl } from './helpers.js';
import { allowSignIn, completeSignIn, deniedWithRedirect } from './complete-sign-in.js';
import { confirmLinkPage, showEmailedLink } from '../links/emailed-link.js';

import { parseEmailAddress } from '../input/text.js';
import { coreMessages } from '../i18n/core/index.js';
/** Trims and lower-cases an address; null when it is not one. The shared parser of `input/text.ts`. */
export { parseEmailAddress };

/**
 * The storage key of a magic link: its own namespace, so no other kind of stored token (an account link keyed
 * `purpose:user:address`, a passkey challenge) can be presented as a magic link, nor a magic link as one of them.
 */
export const magicLinkIdentifier = (address: string): string => `magic-link:${address}`;

function failure(ctx: RouteContext, error: unknown): ActionResult {
  if (!ctx.wantsJson && error instanceof AuthError) {
    return { status: 303, redirect: `${ctx.auth.config.pages.error}?error=${pageErrorCode(error.code)}` };
  }
  return errorResult(ctx, error);
}

/** `POST /signin/email`. Answers the same way whether or not the address is known. */
export async function emailSignInAction(ctx: RouteContext, provider: EmailProvider): Promise<ActionResult> {
  const { auth } = ctx;
  const address = parseEmailAddress(ctx.body.email);
  if (!address) return errorResult(ctx, badRequest('Enter a valid email address'));
  try {
    const adapter = auth.adapter!;
    const existing = await adapter.getUserByEmail(address);
    const redirectTo = await allowSignIn(ctx, {
      user: existing ?? { id: '', email: address },
      account: { provider: provider.id, providerAccountId: address, type: 'email' },
      email: { verificationRequest: true },
    });
    // A URL from the signIn callback refuses the request: no mail is sent.
    if (redirectTo !== undefined) return deniedWithRedirect(ctx, redirectTo);
    const callbackUrl = await resolveCallbackUrl(ctx, ctx.body.callbackUrl ?? ctx.url.searchParams.get('callbackUrl'));
    const token = randomString(32);
    const tokenHash = await sha256Hex(token);
    const expires = new Date(ctx.auth.clock.now() + provider.maxAge * 1000);
    await adapter.createVerificationToken({ identifier: magicLinkIdentifier(address), tokenHash, expires });
    const url = new URL(`${ctx.origin}${auth.config.basePath}/callback/${provider.id}`);
    url.searchParams.set('token', token);
    url.searchParams.set('email', address);
    if (callbackUrl !== '/') url.searchParams.set('callbackUrl', callbackUrl);
    try {
      const params = { identifier: address, url: url.href, token, expires, from: provider.from };
      const message = { kind: 'magic-link', channel: 'email', to: address, url: url.href, token } as const;
      await auth.deliver({ ...message, expiresAt: expires, data: params }, () =>
        provider.sendVerificationRequest(params),
      );
    } catch (error) {
      await adapter.useVerificationToken({ identifier: magicLinkIdentifier(address), tokenHash });
      const name = error instanceof Error ? error.name : typeof error;
      auth.logger.error(
        `[auth] ${provider.id}: sendVerificationRequest threw: ${name}: ${error instanceof Error ? error.message : ''}`,
      );
      throw authError('EMAIL_SIGNIN_ERROR');
    }
    const verify = `${auth.config.pages.verifyRequest}?provider=${encodeURIComponent(provider.id)}`;
    if (ctx.wantsJson) return { status: 200, json: { ok: true, url: verify } };
    return { status: 303, redirect: verify };
  } catch (error) {
    return failure(ctx, error);
  }
}

/**
 * `GET /callback/email` (also HEAD): the page the link opens, whose button
 * POSTs the token. Nothing is consumed here (the shared emailed-link page),
 * so a mail scanner or link preview fetching the link cannot use it up.
 */
export async function emailConfirmPageAction(ctx: RouteContext, _provider: EmailProvider): Promise<ActionResult> {
  try {
    return await showEmailedLink(ctx, {
      params: ['token', 'email'],
      check: (_ctx, params) => {
        if (!parseEmailAddress(params.email) || params.token!.length > 256) throw invalidLink();
      },
      page: (ctx, form) => {
        const t = coreMessages.for(ctx);
        return confirmLinkPage({
          title: t('magicLink.title'),
          message: t('magicLink.text', { email: form.params.email! }),
          button: t('magicLink.button'),
          form,
          lang: t.lang,
        });
      },
    });
  } catch (error) {
    return failure(ctx, error instanceof AuthError && error.code === 'TOKEN_INVALID' ? invalidLink() : error);
  }
}

function invalidLink(): AuthError {
  return authError('VERIFICATION_FAILED', 'The sign-in link is invalid, used or expired');
}

/**
 * `POST /callback/email` (fields `token`, `email`, `callbackUrl`; CSRF-checked): consumes the token once and
 * signs in.
 */
export async function emailCallbackAction(ctx: RouteContext, provider: EmailProvider): Promise<ActionResult> {
  const { auth } = ctx;
  try {
    const address = parseEmailAddress(ctx.body.email);
    const token = ctx.body.token;
    if (!address || !token || token.length > 256) throw invalidLink();
    const adapter = auth.adapter!;
    const used = await adapter.useVerificationToken({
      identifier: magicLinkIdentifier(address),
      tokenHash: await sha256Hex(token),
    });
    if (!used || used.expires.getTime() <= ctx.auth.clock.now()) throw invalidLink();

    const existing = await adapter.getUserByEmail(address);
    const account = { provider: provider.id, providerAccountId: address, type: 'email' as const };
    return await completeSignIn(ctx, {
      user: existing ?? { id: '', email: address },
      account,
      email: { verificationRequest: false },
      emailProven: true,
      isNewUser: !existing,
      callbackUrl: await resolveCallbackUrl(ctx, ctx.body.callbackUrl),
      persist: async () => {
        let user =
          existing ?? (await adapter.createUser({ email: address, emailVerified: new Date(ctx.auth.clock.now()) }));
        if (!user.emailVerified)
          user = (await adapter.updateUser(user.id, { emailVerified: new Date(ctx.auth.clock.now()) })) ?? user;
        if (!(await adapter.getAccount(account))) await adapter.linkAccount({ ...account, userId: user.id });
        return user;
      },
    });
  } catch (error) {
    return failure(ctx, error);
  }
}

/** The magic-link flow, attached to every provider `email()` builds. */
export const emailFlow: SignInFlow<EmailProvider> = {
  signIn: emailSignInAction,
  callback: (ctx, provider) =>
    ctx.request.method === 'POST' ? emailCallbackAction(ctx, provider) : emailConfirmPageAction(ctx, provider),
};
