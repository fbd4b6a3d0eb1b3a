/**
 * The routes of `twoFactor()` under `basePath`: settings (`GET /two-factor`), enrolment (`enable`, `confirm`),
 * the sign-in step (`verify`), `disable`, `backup-codes` and `trusted-devices/revoke`. Every route but `verify`
 * answers the session cookie only (never an API key); every POST is CSRF-checked and rate-limited.
 * @module
 * @internal
 */
import { renderSVG } from 'uqr';
import { sha256Hex, randomString, timingSafeEqual } from '../../crypto.js';
import { AuthError } from '../../errors.js';
import { readCookie } from '../../http/cookies.js';
import { issueSignIn } from '../../routes/complete-sign-in.js';
import type { ActionResult, RouteContext } from '../../routes/context.js';
import { csrfFor, errorResult } from '../../routes/helpers.js';
import { attemptIdentity, type RouteRateLimit } from '../../routes/rate-limited.js';
import { emit } from '../../routes/emit.js';
import { confirmHolder, passwordHashOf } from '../../routes/account/confirm-holder.js';
import { signedIn, signedInAsSelf, storageOf, type Caller } from '../../routes/account/signed-in.js';
import { verifyPassword } from '../../password.js';
import type { Action, AuthHooks, PluginRoute } from '../types.js';
import { generateBackupCodes } from './backup-codes.js';
import { spendSecondFactor, type KeyVault, type SecondFactor } from './codes.js';
import {
  challengeCookie,
  challengeCookieName,
  clearChallengeCookie,
  clearTrustCookie,
  readChallenge,
  trustCookie,
  trustCookieName,
} from './cookies.js';
import { withinFailureBudget } from './lockout.js';
import type { ResolvedTwoFactorOptions } from './options.js';
import { settingsPage, verifyPage, type SettingsView } from './pages.js';
import { keyUri } from './totp.js';
import type { TwoFactorRecord } from './types.js';

/** What the routes share, made once in the plugin's `init`. */
export interface TwoFactorDeps {
  options: ResolvedTwoFactorOptions;
  vault: () => KeyVault;
  /** The plugin's own `beforeSession` hook, skipped when `verify` finishes a sign-in. */
  ownHook: NonNullable<AuthHooks['beforeSession']>;
}

const NO_STORE = { 'cache-control': 'no-store', 'referrer-policy': 'same-origin' };
const fail = (
  code: 'TWO_FACTOR_INVALID_CODE' | 'TWO_FACTOR_NOT_ENABLED' | 'TWO_FACTOR_ALREADY_ENABLED',
  message: string,
) =>
  new AuthError(message, {
    code,
    status: code === 'TWO_FACTOR_NOT_ENABLED' ? 400 : code === 'TWO_FACTOR_ALREADY_ENABLED' ? 409 : 401,
  });
const challengeInvalid = () =>
  new AuthError('The sign-in expired; sign in again', { code: 'TWO_FACTOR_CHALLENGE_INVALID', status: 401 });

/** Guesses on these routes (passwords, codes) count on the login limiter per IP and per session. */
function guessLimit(ctx: RouteContext): RouteRateLimit | undefined {
  const { login } = ctx.auth.limiters;
  if (!login) return undefined;
  const cookie = readCookie(ctx.request.headers.get('cookie'), ctx.auth.config.cookies.sessionToken.name) ?? '';
  const id = ctx.auth.config.session.strategy === 'database' ? (cookie.split('.')[0] ?? '') : '';
  return { limiter: login, mode: 'attempt', identifier: id ? `session:${id}` : '' };
}

/**
 * `verify` counts per IP and per (IP, account) as the first factor did, the account being the one the first
 * factor's attempt named (sealed in the challenge), so a completed second factor settles that attempt as a success
 * (`issueSignIn`) and wrong codes count with wrong passwords. A first factor without an account on the limiter
 * (OAuth, a passkey) counts per challenge instead (the sealed cookie's authentication tag names it).
 */
function verifyLimit(ctx: RouteContext): RouteRateLimit | undefined {
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

async function settings(
  ctx: RouteContext,
  deps: TwoFactorDeps,
  caller: Caller,
  extra: Partial<SettingsView> = {},
  status = 200,
): Promise<ActionResult> {
  const o = deps.options;
  const record = await o.storage.get(caller.user.id);
  const { token, cookie } = await csrfFor(ctx);
  const view: SettingsView = {
    basePath: ctx.auth.config.basePath,
    csrfToken: token,
    digits: o.totp.digits,
    enabled: record?.enabled === true,
    backupCodesLeft: record?.enabled ? await o.storage.countBackupCodes(caller.user.id) : 0,
    devices: record?.enabled ? await o.storage.listTrustedDevices(caller.user.id, new Date()) : [],
    ...extra,
  };
  return {
    status,
    html: settingsPage(view),
    cookies: [...caller.cookies, ...(cookie ? [cookie] : [])],
    headers: NO_STORE,
  };
}

/** Runs a settings POST; for browsers, a refusal (4xx) shows the settings page again with the message. */
function settingsAction(
  deps: TwoFactorDeps,
  run: (
    ctx: RouteContext,
    caller: Caller,
  ) => Promise<{
    json: Record<string, unknown>;
    view?: Partial<SettingsView>;
    caller?: Caller;
    cookies?: ActionResult['cookies'];
  }>,
): Action {
  return async (ctx) => {
    const caller = await signedInAsSelf(ctx);
    try {
      const out = await run(ctx, caller);
      if (ctx.wantsJson)
        return {
          status: 200,
          json: { ok: true, ...out.json },
          cookies: [...caller.cookies, ...(out.cookies ?? [])],
          headers: NO_STORE,
        };
      const page = await settings(ctx, deps, caller, out.view ?? {});
      return { ...page, cookies: [...(page.cookies ?? []), ...(out.cookies ?? [])] };
    } catch (error) {
      if (ctx.wantsJson || !(error instanceof AuthError) || error.status >= 500 || error.status === 429) throw error;
      return settings(ctx, deps, caller, { error: error.message }, error.status);
    }
  };
}

/**
 * Checks and spends a second factor of an enabled enrolment within the user's failure budget (`lockout`).
 * @throws AuthError `TWO_FACTOR_LOCKED` (429) while the budget is spent.
 */
function spendWithinBudget(
  deps: TwoFactorDeps,
  ctx: RouteContext,
  record: TwoFactorRecord,
  factor: SecondFactor,
): Promise<boolean> {
  // Nothing sent is no guess.
  if (!factor.code && !factor.backupCode) return Promise.resolve(false);
  return withinFailureBudget(ctx, deps.options.lockout, record.userId, () =>
    spendSecondFactor(deps.options, deps.vault(), record, factor),
  );
}

/** The password (argon2-checked) or a second factor (spent), for `disable` and `backup-codes`. */
async function confirmPasswordOrFactor(
  ctx: RouteContext,
  deps: TwoFactorDeps,
  caller: Caller,
  record: TwoFactorRecord,
): Promise<void> {
  const { password, code, backupCode } = ctx.body;
  if (password) {
    const hash = await passwordHashOf(ctx, caller.user.id);
    if (hash && (await verifyPassword(password, hash))) return void (await ctx.attempt?.succeeded());
    await ctx.attempt?.failed();
    throw new AuthError('Wrong password', { code: 'INVALID_CREDENTIALS', status: 401 });
  }
  if (await spendWithinBudget(deps, ctx, record, { code, backupCode })) {
    return void (await ctx.attempt?.succeeded());
  }
  await ctx.attempt?.failed();
  throw fail('TWO_FACTOR_INVALID_CODE', 'Enter your password, or a valid code');
}

/**
 * Enrolment needs a verified email address (a user without one has nothing to prove and may enrol). The account
 * pre-hijacking defence removes second factors set while the email was unverified on its first proof (a reset or
 * magic link); refusing those enrolments means that proof, mailbox access alone, can never remove a real user's
 * second factor.
 * @throws AuthError `EMAIL_NOT_VERIFIED` (403).
 */
async function requireVerifiedEmail(ctx: RouteContext, caller: Caller): Promise<void> {
  const stored = await storageOf(ctx).getUser(caller.user.id);
  if (stored?.email && !stored.emailVerified)
    throw new AuthError('Verify your email address before turning on two-factor authentication', {
      code: 'EMAIL_NOT_VERIFIED',
      status: 403,
    });
}

async function enabledRecord(deps: TwoFactorDeps, userId: string): Promise<TwoFactorRecord> {
  const record = await deps.options.storage.get(userId);
  if (!record?.enabled) throw fail('TWO_FACTOR_NOT_ENABLED', 'Two-factor authentication is not on');
  return record;
}

/**
 * `POST /two-factor/enable {password}`: a new, unconfirmed enrolment with its key URI, QR code and backup codes.
 * 403 `EMAIL_NOT_VERIFIED` while the user's email is unverified.
 */
function enableAction(deps: TwoFactorDeps): Action {
  return settingsAction(deps, async (ctx, caller) => {
    const o = deps.options;
    await requireVerifiedEmail(ctx, caller);
    await confirmHolder(ctx, caller, 'Enter your password (or sign in again) to set up two-factor authentication');
    const existing = await o.storage.get(caller.user.id);
    if (existing?.enabled) throw fail('TWO_FACTOR_ALREADY_ENABLED', 'Two-factor authentication is already on');
    const { key, stored } = await deps.vault().create(caller.user.id);
    await o.storage.put({
      userId: caller.user.id,
      secret: stored,
      enabled: false,
      lastUsedStep: null,
      createdAt: new Date(),
      enabledAt: null,
    });
    const { codes, hashes } = await generateBackupCodes(o.backupCodes);
    await o.storage.setBackupCodes(caller.user.id, hashes);
    const issuer = o.issuer ?? (new URL(ctx.origin).hostname || 'App');
    const totpURI = keyUri(issuer, caller.user.email ?? caller.user.name ?? caller.user.id, key, o.totp);
    const qrCode = renderSVG(totpURI, { border: 2 });
    // The base32 key (RFC 4648 §6), for typing by hand: the URI's own `secret` parameter.
    const secret = new URL(totpURI).searchParams.get('secret') ?? '';
    return {
      json: { totpURI, qrCode, secret, backupCodes: codes },
      view: { enrolment: { qrCode, secret, backupCodes: codes } },
    };
  });
}

/** `POST /two-factor/confirm {code}`: the first valid code turns two-factor on (403 `EMAIL_NOT_VERIFIED` as `enable`). */
function confirmAction(deps: TwoFactorDeps): Action {
  return settingsAction(deps, async (ctx, caller) => {
    const o = deps.options;
    const record = await o.storage.get(caller.user.id);
    if (!record) throw fail('TWO_FACTOR_NOT_ENABLED', 'Set up two-factor authentication first');
    if (record.enabled) throw fail('TWO_FACTOR_ALREADY_ENABLED', 'Two-factor authentication is already on');
    // A pending enrolment started before the rule (while unverified) is not confirmed either.
    await requireVerifiedEmail(ctx, caller);
    if (!(await spendSecondFactor(o, deps.vault(), record, { code: ctx.body.code }))) {
      await ctx.attempt?.failed();
      throw fail('TWO_FACTOR_INVALID_CODE', 'The code is wrong; check the time on your device and try again');
    }
    await ctx.attempt?.succeeded();
    await o.storage.enable(caller.user.id, new Date());
    await emit(ctx, 'onTwoFactorEnabled', { user: caller.user });
    return { json: { enabled: true }, view: { notice: 'Two-factor authentication is on.' } };
  });
}

/** `POST /two-factor/disable {password | code | backupCode}`: removes the enrolment, codes and trusted browsers. */
function disableAction(deps: TwoFactorDeps): Action {
  return settingsAction(deps, async (ctx, caller) => {
    const record = await enabledRecord(deps, caller.user.id);
    await confirmPasswordOrFactor(ctx, deps, caller, record);
    await deps.options.storage.remove(caller.user.id);
    await emit(ctx, 'onTwoFactorDisabled', { user: caller.user });
    ctx.auth.logger.warn(`[auth] security event two-factor-disabled: user ${caller.user.id}`);
    return {
      json: { enabled: false },
      view: { notice: 'Two-factor authentication is off.' },
      cookies: [clearTrustCookie(ctx.auth)],
    };
  });
}

/** `POST /two-factor/backup-codes {password | code}`: new backup codes (the old ones stop working), shown once. */
function backupCodesAction(deps: TwoFactorDeps): Action {
  return settingsAction(deps, async (ctx, caller) => {
    const record = await enabledRecord(deps, caller.user.id);
    await confirmPasswordOrFactor(ctx, deps, caller, record);
    const { codes, hashes } = await generateBackupCodes(deps.options.backupCodes);
    await deps.options.storage.setBackupCodes(caller.user.id, hashes);
    return { json: { backupCodes: codes }, view: { newBackupCodes: codes } };
  });
}

/** `POST /two-factor/trusted-devices/revoke {id?}`: forgets one trusted browser, or all of them. */
function revokeDevicesAction(deps: TwoFactorDeps): Action {
  return settingsAction(deps, async (ctx, caller) => {
    const id = ctx.body.id || undefined;
    const removed = await deps.options.storage.removeTrustedDevices(caller.user.id, id);
    const own = (ctx.cookies[trustCookieName(ctx.auth)] ?? '').split('.')[0];
    const cookies = id === undefined || id === own ? [clearTrustCookie(ctx.auth)] : [];
    return {
      json: { removed },
      view: { notice: `Forgot ${removed} trusted browser${removed === 1 ? '' : 's'}.` },
      cookies,
    };
  });
}

/** `GET /two-factor`: status as JSON (`{enabled, backupCodesLeft, trustedDevices}`), or the settings page. */
function statusAction(deps: TwoFactorDeps): Action {
  return async (ctx) => {
    if (!ctx.wantsJson) {
      const { user } = await ctx.auth.readSession(ctx.request);
      if (!user) return { status: 303, redirect: ctx.auth.config.pages.signIn };
    }
    const caller = await signedIn(ctx);
    if (!ctx.wantsJson) return settings(ctx, deps, caller);
    const o = deps.options;
    const record = await o.storage.get(caller.user.id);
    const enabled = record?.enabled === true;
    const devices = enabled ? await o.storage.listTrustedDevices(caller.user.id, new Date()) : [];
    return {
      status: 200,
      json: {
        enabled,
        pending: record !== null && !enabled,
        backupCodesLeft: enabled ? await o.storage.countBackupCodes(caller.user.id) : 0,
        trustedDevices: devices.map((d) => ({
          id: d.id,
          userAgent: d.userAgent,
          createdAt: d.createdAt.toISOString(),
          expiresAt: d.expiresAt.toISOString(),
        })),
      },
      cookies: caller.cookies,
      headers: NO_STORE,
    };
  };
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
    }),
    cookies: cookie ? [cookie] : [],
    headers: NO_STORE,
  };
}

/** `GET /two-factor/verify`: the code prompt while a sign-in challenge is open, else back to the sign-in page. */
function verifyPageAction(deps: TwoFactorDeps): Action {
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
function verifyAction(deps: TwoFactorDeps): Action {
  return async (ctx) => {
    const o = deps.options;
    const challenge = await readChallenge(ctx.auth, ctx.cookies[challengeCookieName(ctx.auth)]);
    if (!challenge) throw challengeInvalid();
    const attempts = await o.storage.challengeAttempt(challenge.id, challenge.expiresAt);
    if (attempts === Number.POSITIVE_INFINITY) throw challengeInvalid();
    if (attempts > o.maxAttempts) {
      const error = new AuthError('Too many codes tried; sign in again', {
        code: 'TWO_FACTOR_TOO_MANY_ATTEMPTS',
        status: 429,
      });
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
      const page = await verifyForm(ctx, deps, error.message, error.status);
      return { ...page, headers: { ...page.headers, ...error.headers } };
    }
    if (!right) {
      await ctx.attempt?.failed();
      await emit(ctx, 'onSignInFailed', { provider: 'two-factor', identifier: null, reason: 'invalid-credentials' });
      const error = fail('TWO_FACTOR_INVALID_CODE', 'The code is wrong or was already used');
      if (ctx.wantsJson) throw error;
      return verifyForm(ctx, deps, error.message, 401);
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
      const now = Date.now();
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
  if (!device || device.userId !== userId || device.expiresAt.getTime() <= Date.now()) return false;
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
    const error = new AuthError('Enter the code from your authenticator app', {
      code: 'TWO_FACTOR_REQUIRED',
      status: 401,
    });
    return { status: 401, json: { ...error.toJSON(), url }, cookies: [cookie], headers: NO_STORE };
  }
  return { status: 303, redirect: url, cookies: [cookie] };
}

/** The route table. */
export function twoFactorRoutes(deps: TwoFactorDeps): Record<string, PluginRoute> {
  const guarded = (POST: Action): PluginRoute => ({ POST, csrf: 'token', rateLimit: guessLimit });
  return {
    'two-factor': { GET: statusAction(deps) },
    'two-factor/enable': guarded(enableAction(deps)),
    'two-factor/confirm': guarded(confirmAction(deps)),
    'two-factor/disable': guarded(disableAction(deps)),
    'two-factor/backup-codes': guarded(backupCodesAction(deps)),
    'two-factor/trusted-devices/revoke': guarded(revokeDevicesAction(deps)),
    'two-factor/verify': {
      GET: verifyPageAction(deps),
      POST: verifyAction(deps),
      csrf: 'token',
      rateLimit: verifyLimit,
    },
  };
}
