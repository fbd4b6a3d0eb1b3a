/**
 * Email magic links: `POST /signin/email` sends the link; `GET
 * /callback/email?token=…&email=…` signs in.
 * @internal
 * @module
 */
import { AuthError, badRequest } from '../errors.js';
import { randomString, sha256Hex } from '../crypto.js';
import { readCookie } from '../http/cookies.js';
import type { EmailProvider } from '../providers/email.js';
import { pageErrorCode } from '../pages/messages.js';
import type { ActionResult, RouteContext } from './context.js';
import { callUser, errorResult, resolveCallbackUrl, sessionCookie } from './helpers.js';
import { allowSignIn } from './signin.js';

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}$/;

/** Trims and lower-cases an address; null when it is not one. */
export function normaliseEmail(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const address = value.trim().toLowerCase();
  return EMAIL.test(address) && !address.includes(',') ? address : null;
}

function failure(ctx: RouteContext, error: unknown): ActionResult {
  if (!ctx.wantsJson && error instanceof AuthError) {
    return { status: 303, redirect: `${ctx.auth.config.pages.error}?error=${pageErrorCode(error.code)}` };
  }
  return errorResult(ctx, error);
}

/** `POST /signin/email`. Answers the same way whether or not the address is known. */
export async function emailSignInAction(ctx: RouteContext, provider: EmailProvider): Promise<ActionResult> {
  const { auth } = ctx;
  const address = normaliseEmail(ctx.body.email);
  if (!address) return errorResult(ctx, badRequest('Enter a valid email address'));
  try {
    const adapter = auth.adapter!;
    const existing = await adapter.getUserByEmail(address);
    const redirectTo = await allowSignIn(ctx, {
      user: existing ?? { id: '', email: address },
      account: { provider: provider.id, providerAccountId: address, type: 'email' },
      email: { verificationRequest: true },
    });
    const callbackUrl = redirectTo ?? (await resolveCallbackUrl(ctx, ctx.body.callbackUrl ?? ctx.url.searchParams.get('callbackUrl')));
    const token = randomString(32);
    const tokenHash = await sha256Hex(token);
    const expires = new Date(Date.now() + provider.maxAge * 1000);
    await adapter.createVerificationToken({ identifier: address, tokenHash, expires });
    const url = new URL(`${ctx.origin}${auth.config.basePath}/callback/${provider.id}`);
    url.searchParams.set('token', token);
    url.searchParams.set('email', address);
    if (callbackUrl !== '/') url.searchParams.set('callbackUrl', callbackUrl);
    try {
      await provider.sendVerificationRequest({ identifier: address, url: url.href, token, expires, from: provider.from });
    } catch (error) {
      await adapter.useVerificationToken({ identifier: address, tokenHash });
      const name = error instanceof Error ? error.name : typeof error;
      auth.logger.error(`[auth] ${provider.id}: sendVerificationRequest threw: ${name}: ${error instanceof Error ? error.message : ''}`);
      throw new AuthError('The sign-in email could not be sent', { code: 'EMAIL_SIGNIN_ERROR', status: 502 });
    }
    const verify = `${auth.config.pages.verifyRequest}?provider=${encodeURIComponent(provider.id)}`;
    if (ctx.wantsJson) return { status: 200, json: { ok: true, url: verify } };
    return { status: 303, redirect: verify };
  } catch (error) {
    return failure(ctx, error);
  }
}

/** `GET /callback/email`: consumes the token once and signs in. */
export async function emailCallbackAction(ctx: RouteContext, provider: EmailProvider): Promise<ActionResult> {
  const { auth } = ctx;
  try {
    const address = normaliseEmail(ctx.url.searchParams.get('email'));
    const token = ctx.url.searchParams.get('token');
    const invalid = new AuthError('The sign-in link is invalid, used or expired', { code: 'VERIFICATION_FAILED', status: 400 });
    if (!address || !token || token.length > 256) throw invalid;
    const adapter = auth.adapter!;
    const used = await adapter.useVerificationToken({ identifier: address, tokenHash: await sha256Hex(token) });
    if (!used || used.expires.getTime() <= Date.now()) throw invalid;

    let user = await adapter.getUserByEmail(address);
    const isNewUser = !user;
    const account = { provider: provider.id, providerAccountId: address, type: 'email' as const };
    const redirectTo = await allowSignIn(ctx, { user: user ?? { id: '', email: address }, account, email: { verificationRequest: false } });
    if (!user) user = await adapter.createUser({ email: address, emailVerified: new Date() });
    else if (!user.emailVerified) user = (await adapter.updateUser(user.id, { emailVerified: new Date() })) ?? user;
    if (!(await adapter.getAccount(account))) await adapter.linkAccount({ ...account, userId: user.id });

    const previous = readCookie(ctx.request.headers.get('cookie'), auth.config.cookies.sessionToken.name);
    const signedIn = user;
    const issued = await callUser(auth, 'jwt callback', () =>
      auth.strategy.issue({ user: signedIn, account, isNewUser, ...(previous ? { previous } : {}) }),
    );
    const url =
      redirectTo ??
      (isNewUser && auth.config.pages.newUser ? auth.config.pages.newUser : await resolveCallbackUrl(ctx, ctx.url.searchParams.get('callbackUrl')));
    const cookies = [sessionCookie(auth, issued.value, issued.expires)];
    if (ctx.wantsJson) return { status: 200, json: { ok: true, url }, cookies };
    return { status: 303, redirect: url, cookies };
  } catch (error) {
    return failure(ctx, error);
  }
}
