/**
 * The sign-in side of `twoFactor()`: the challenge that interrupts a first factor, trusted browsers, and
 * `GET`/`POST /two-factor/verify` with its rate-limit policy.
 * @module
 * @internal
 */
import {
  sha256Hex,
  randomString,
  timingSafeEqual,
  AuthError,
  errorMessageFor,
  pageLocale,
  issueSignIn,
  csrfFor,
  errorResult,
  attemptIdentity,
  emit,
  storageOf,
} from '../../plugin-kit.js';
import type { ActionResult, RouteContext, RouteRateLimit, Action, AuthHooks } from '../../plugin-kit.js';
import {
  challengeCookie,
  challengeCookieName,
  clearChallengeCookie,
  readChallenge,
  trustCookie,
  trustCookieName,
} from './cookies.js';
import { challengeInvalid, fail, NO_STORE, spendWithinBudget, type TwoFactorDeps } from './deps.js';
import type { ResolvedTwoFactorOptions } from './options.js';
import { verifyPage } from './pages.js';
import { twoFactorMessages } from './messages.js';
import { TWO_FACTOR_ERRORS } from './errors.js';

/**
 * `verify` counts per IP and per (IP, account) as the first factor did, the account being the one the first
 * factor's attempt named (sealed in the challenge), so a completed second factor settles that attempt as a success
 * (`issueSignIn`) and wrong codes count with wrong passwords. A first factor without an account on the limiter
 * (OAuth, a passkey) counts per challenge instead (the sealed cookie's authentication tag names it).
 */
export function verifyLimit(ctx: RouteContext): RouteRateLimit | undefined {
  const { login } = ctx.auth.limiters;
  if (!login) return undefined;
  const value = ctx.cookies[challengeCookieName(ctx.auth)] ?? '';
  const tag = value.slice(value.lastIndexOf('.') + 1, value.lastIndexOf('.') + 23);
  const identifier = async () =>
    (await readChallenge(ctx.auth, value || undefined))?.attemptIdentifier ?? (tag ? `two-factor:${tag}` : '');
  return { limiter: login, mode: 'attempt', identifier };
}

/** The longest first-factor account carried in a challenge cookie (an email address is at most 254). */
const MAX_ATTEMPT_IDENTIFIER = 320;

/** The account the first factor's `login` attempt counted against, to carry into the challenge; else null. */
function firstFactorAccount(ctx: RouteContext): string | null {
  const identity = attemptIdentity(ctx);
  if (!identity || identity.limiter !== ctx.auth.limiters.login) return null;
  return identity.identifier.length <= MAX_ATTEMPT_IDENTIFIER ? identity.identifier : null;
}

async function verifyForm(
  ctx: RouteContext,
  deps: TwoFactorDeps,
  error: string | null,
  status: number,
): Promise<ActionResult> {
  const { token, cookie } = await csrfFor(ctx);
  const trust = deps.options.trustMaxAge;
  return {
    status,
    html: verifyPage({
      basePath: ctx.auth.config.basePath,
      csrfToken: token,
      digits: deps.options.totp.digits,
      trustDays: trust === undefined ? undefined : Math.round(trust / 86_400),
      error,
      locale: pageLocale(ctx),
    }),
    cookies: cookie ? [cookie] : [],
    headers: NO_STORE,
  };
}

/** `GET /two-factor/verify`: the code prompt while a sign-in challenge is open, else back to the sign-in page. */
export function verifyPageAction(deps: TwoFactorDeps): Action {
  return async (ctx) => {
    const challenge = await readChallenge(ctx.auth, ctx.cookies[challengeCookieName(ctx.auth)]);
    if (!challenge) return { status: 303, redirect: ctx.auth.config.pages.signIn };
    return verifyForm(ctx, deps, null, 200);
  };
}

/**
 * `POST /two-factor/verify {code | backupCode, trustDevice?}`: the second step of a sign-in. Needs the challenge
 * cookie the first step set; each challenge allows `maxAttempts` codes and one success. On success the other
 * plugins' `beforeSession` hooks run, then the session is issued as for any sign-in.
 */
export function verifyAction(deps: TwoFactorDeps): Action {
  return async (ctx) => {
    const o = deps.options;
    const challenge = await readChallenge(ctx.auth, ctx.cookies[challengeCookieName(ctx.auth)]);
    if (!challenge) throw challengeInvalid();
    const attempts = await o.storage.challengeAttempt(challenge.id, challenge.expiresAt);
    if (attempts === Number.POSITIVE_INFINITY) throw challengeInvalid();
    if (attempts > o.maxAttempts) {
      const error = TWO_FACTOR_ERRORS.error('TWO_FACTOR_TOO_MANY_ATTEMPTS');
      return { ...errorResult(ctx, error), cookies: [clearChallengeCookie(ctx.auth)] };
    }
    const record = await o.storage.get(challenge.userId);
    if (!record?.enabled) throw challengeInvalid();
    const factor = { code: ctx.body.code, backupCode: ctx.body.backupCode };
    let right: boolean;
    try {
      right = await spendWithinBudget(deps, ctx, record, factor);
    } catch (error) {
      // Browsers see the code page again with the message (and Retry-After).
      if (ctx.wantsJson || !(error instanceof AuthError) || error.code !== 'TWO_FACTOR_LOCKED') throw error;
      const page = await verifyForm(ctx, deps, errorMessageFor(ctx, error, twoFactorMessages), error.status);
      return { ...page, headers: { ...page.headers, ...error.headers } };
    }
    if (!right) {
      await ctx.attempt?.failed();
      await emit(ctx, 'onSignInFailed', { provider: 'two-factor', identifier: null, reason: 'invalid-credentials' });
      const error = fail('TWO_FACTOR_INVALID_CODE', 'The code is wrong or was already used');
      if (ctx.wantsJson) throw error;
      return verifyForm(ctx, deps, errorMessageFor(ctx, error, twoFactorMessages), 401);
    }
    if (!(await o.storage.consumeChallenge(challenge.id, challenge.expiresAt))) throw challengeInvalid();
    const adapter = storageOf(ctx);
    const user = await adapter.getUser(challenge.userId);
    if (!user) throw challengeInvalid();
    const account =
      challenge.provider === null
        ? null
        : ((await adapter.listAccounts(user.id)).find(
            (a) => a.provider === challenge.provider && a.providerAccountId === challenge.providerAccountId,
          ) ?? null);
    const subject = { user, account, isNewUser: challenge.isNewUser, callbackUrl: challenge.callbackUrl };
    for (const hook of ctx.auth.hooks.beforeSession) {
      if (hook === deps.ownHook) continue;
      const answer = await hook(ctx, subject);
      if (answer) return { ...answer, cookies: [...(answer.cookies ?? []), clearChallengeCookie(ctx.auth)] };
    }
    const cookies = [clearChallengeCookie(ctx.auth)];
    const trust = ctx.body.trustDevice;
    if (o.trustMaxAge !== undefined && (trust === 'true' || trust === 'on' || trust === '1')) {
      const id = randomString(16);
      const secret = randomString(32);
      const now = ctx.auth.clock.now();
      await o.storage.addTrustedDevice({
        id,
        userId: user.id,
        secretHash: await sha256Hex(secret),
        userAgent: ctx.request.headers.get('user-agent')?.slice(0, 256) ?? null,
        createdAt: new Date(now),
        expiresAt: new Date(now + o.trustMaxAge * 1000),
      });
      cookies.push(trustCookie(ctx.auth, `${id}.${secret}`, o.trustMaxAge));
    }
    return issueSignIn(ctx, subject, { cookies });
  };
}

/**
 * True when the request carries this user's live trust cookie (checked against storage, the secret compared in
 * constant time).
 */
export async function trustedBrowser(ctx: RouteContext, o: ResolvedTwoFactorOptions, userId: string): Promise<boolean> {
  if (o.trustMaxAge === undefined) return false;
  const value = ctx.cookies[trustCookieName(ctx.auth)];
  if (!value || value.length > 200) return false;
  const [id, secret] = value.split('.');
  if (!id || !secret) return false;
  const device = await o.storage.findTrustedDevice(id);
  if (!device || device.userId !== userId || device.expiresAt.getTime() <= ctx.auth.clock.now()) return false;
  return timingSafeEqual(await sha256Hex(secret), device.secretHash);
}

/** Interrupts a sign-in for a second factor: the challenge cookie, then `TWO_FACTOR_REQUIRED` or the code page. */
export async function challengeAnswer(
  ctx: RouteContext,
  o: ResolvedTwoFactorOptions,
  subject: Parameters<NonNullable<AuthHooks['beforeSession']>>[1],
): Promise<ActionResult> {
  const cookie = await challengeCookie(
    ctx.auth,
    {
      userId: subject.user.id,
      provider: subject.account?.provider ?? null,
      providerAccountId: subject.account?.providerAccountId ?? null,
      callbackUrl: subject.callbackUrl,
      isNewUser: subject.isNewUser,
      attemptIdentifier: firstFactorAccount(ctx),
    },
    o.challengeMaxAge,
  );
  const url = `${ctx.auth.config.basePath}/two-factor/verify`;
  if (ctx.wantsJson) {
    const error = TWO_FACTOR_ERRORS.error('TWO_FACTOR_REQUIRED');
    return { status: 401, json: { ...error.toJSON(), url }, cookies: [cookie], headers: NO_STORE };
  }
  return { status: 303, redirect: url, cookies: [cookie] };
}
