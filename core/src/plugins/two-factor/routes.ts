/**
 * The routes of `twoFactor()` under `basePath`: settings (`GET /two-factor`), enrolment (`enable`, `confirm`),
 * the sign-in step (`verify`), `disable`, `backup-codes` and `trusted-devices/revoke`. Every route but `verify`
 * answers the session cookie only (never an API key); every POST is CSRF-checked and rate-limited.
 * @module
 * @internal
 */
import { renderSVG } from 'uqr';
import {
  AuthError,
  errorMessageFor,
  pageLocale,
  readCookie,
  csrfFor,
  emit,
  confirmHolder,
  passwordHashOf,
  signedIn,
  signedInAsSelf,
  storageOf,
  type Caller,
} from '../../plugin-kit.js';
import type { ActionResult, RouteContext, RouteRateLimit, Action, PluginRoute } from '../../plugin-kit.js';
import { verifyPassword } from '../../index.js';
import { generateBackupCodes } from './backup-codes.js';
import { spendSecondFactor } from './codes.js';
import { clearTrustCookie, trustCookieName } from './cookies.js';
import { fail, NO_STORE, spendWithinBudget, type TwoFactorDeps } from './deps.js';
import { settingsPage, type SettingsView } from './pages.js';
import { twoFactorMessages } from './messages.js';
import { verifyAction, verifyLimit, verifyPageAction } from './sign-in.js';
import { keyUri } from './totp.js';
import type { TwoFactorRecord } from './types.js';
import { authError } from '../../plugin-kit.js';

/** Guesses on these routes (passwords, codes) count on the login limiter per IP and per session. */
function guessLimit(ctx: RouteContext): RouteRateLimit | undefined {
  const { login } = ctx.auth.limiters;
  if (!login) return undefined;
  const cookie = readCookie(ctx.request.headers.get('cookie'), ctx.auth.config.cookies.sessionToken.name) ?? '';
  const id = ctx.auth.config.session.strategy === 'database' ? (cookie.split('.')[0] ?? '') : '';
  return { limiter: login, mode: 'attempt', identifier: id ? `session:${id}` : '' };
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
    locale: pageLocale(ctx),
    enabled: record?.enabled === true,
    backupCodesLeft: record?.enabled ? await o.storage.countBackupCodes(caller.user.id) : 0,
    devices: record?.enabled ? await o.storage.listTrustedDevices(caller.user.id, new Date(ctx.auth.clock.now())) : [],
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
      return settings(ctx, deps, caller, { error: errorMessageFor(ctx, error, twoFactorMessages) }, error.status);
    }
  };
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
    throw authError('INVALID_CREDENTIALS', 'Wrong password');
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
    throw authError('EMAIL_NOT_VERIFIED', 'Verify your email address before turning on two-factor authentication');
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
      createdAt: new Date(ctx.auth.clock.now()),
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
    if (!(await spendSecondFactor(o, deps.vault(), record, { code: ctx.body.code }, ctx.auth.clock.now()))) {
      await ctx.attempt?.failed();
      throw fail('TWO_FACTOR_INVALID_CODE', 'The code is wrong; check the time on your device and try again');
    }
    await ctx.attempt?.succeeded();
    await o.storage.enable(caller.user.id, new Date(ctx.auth.clock.now()));
    await emit(ctx, 'onTwoFactorEnabled', { user: caller.user });
    return { json: { enabled: true }, view: { notice: twoFactorMessages.for(ctx)('twoFactor.notice.on') } };
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
      view: { notice: twoFactorMessages.for(ctx)('twoFactor.notice.off') },
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
      view: {
        notice: twoFactorMessages.for(ctx)(
          removed === 1 ? 'twoFactor.notice.forgotOne' : 'twoFactor.notice.forgotMany',
          { count: removed },
        ),
      },
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
    const devices = enabled ? await o.storage.listTrustedDevices(caller.user.id, new Date(ctx.auth.clock.now())) : [];
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
