/**
 * The routes of `emailOTP()` under `basePath`: send a code, sign in with it, verify the signed-in user's email with
 * it, reset a password with it; each POST also answers a no-JS form, and each has its page.
 * @module
 * @internal
 */
import { PASSWORD_PROVIDER, passwordAccounts } from '../../index.js';
import {
  allowSignIn,
  authError,
  completeSignIn,
  csrfFor,
  deniedWithRedirect,
  done,
  emit,
  pageLocale,
  parseEmailAddress,
  resolveCallbackUrl,
  signedIn,
  storageOf,
  type Action,
  type ActionResult,
  type PluginRoute,
  type RouteContext,
  type RouteRateLimit,
} from '../../plugin-kit.js';
import {
  otpCodes,
  otpError,
  sendCode,
  withRefusalPage,
  type CodeDelivery,
  type OtpCodes,
  type OtpTarget,
} from '../otp/index.js';
import { emailOtpError } from './errors.js';
import { emailOtpMessages } from './messages.js';
import type { EmailOtpMail, EmailOtpType, ResolvedEmailOtpOptions } from './options.js';
import { resetPasswordPage, signInPage, verifyEmailPage, type PageInput } from './pages.js';

/** The provider id sign-ins with a code carry (`account.provider`, events, the `signIn` callback). */
export const EMAIL_OTP_PROVIDER = 'email-otp';

const TYPES: readonly EmailOtpType[] = ['sign-in', 'email-verification', 'forget-password'];
const target = (purpose: EmailOtpType, address: string): OtpTarget => ({ channel: 'email', purpose, address });
const NO_STORE = { 'cache-control': 'no-store' };

function addressOf(ctx: RouteContext): string {
  const address = parseEmailAddress(ctx.body.email);
  if (!address) throw emailOtpError('EMAIL_OTP_EMAIL_INVALID');
  return address;
}

/** Renders one of the pages for a request. */
type View = (ctx: RouteContext, p: PageInput) => string | Promise<string>;

/** A page with a fresh CSRF token, the address and `callbackUrl` from the body or the query. */
async function page(
  ctx: RouteContext,
  o: ResolvedEmailOtpOptions,
  render: View,
  error?: string,
): Promise<ActionResult> {
  const { token, cookie } = await csrfFor(ctx);
  const q = ctx.url.searchParams;
  const email = ctx.body.email ?? q.get('email') ?? undefined;
  const callbackUrl = ctx.body.callbackUrl ?? q.get('callbackUrl') ?? undefined;
  const input: PageInput = {
    basePath: ctx.auth.config.basePath,
    csrfToken: token,
    email: email ? (parseEmailAddress(email) ?? undefined) : undefined,
    callbackUrl,
    error,
    digits: o.policy.otpLength,
    locale: pageLocale(ctx),
  };
  return { status: 200, html: await render(ctx, input), cookies: cookie ? [cookie] : [], headers: NO_STORE };
}

/** For browsers, a refused POST (4xx) shows its page again with the message and the same status. */
function withPage(o: ResolvedEmailOtpOptions, render: View, action: Action): Action {
  return withRefusalPage(action, (ctx, message) => page(ctx, o, render, message), [emailOtpMessages]);
}

/** Sends a code for `t` by email through the app's hook (see `sendCode`). */
function deliver(ctx: RouteContext, codes: OtpCodes, o: ResolvedEmailOtpOptions, t: OtpTarget, awaited: boolean) {
  const delivery: CodeDelivery<EmailOtpMail> = {
    to: t.address,
    channel: 'email',
    kind: 'email-otp',
    hookName: 'emailOTP: sendVerificationOTP',
    data: (otp, expiresAt) => ({ email: t.address, otp, type: t.purpose as EmailOtpType, expiresAt }),
    send: (mail) => o.send(mail),
  };
  return sendCode(ctx, codes, t, delivery, awaited);
}

/** Where a browser goes after a code was sent: the page that asks for it. */
function nextPage(ctx: RouteContext, type: EmailOtpType, address: string): string {
  const path = { 'sign-in': 'sign-in', 'forget-password': 'reset-password', 'email-verification': 'verify-email' }[
    type
  ];
  const url = new URLSearchParams({ email: address });
  if (ctx.body.callbackUrl) url.set('callbackUrl', ctx.body.callbackUrl);
  return `${ctx.auth.config.basePath}/email-otp/${path}?${url}`;
}

/**
 * `POST /email-otp/send {email, type}`: the same answer whether or not the address has an account. `sign-in` sends
 * to any address while sign-up is on (else only to accounts), `forget-password` only to accounts,
 * `email-verification` only to the signed-in user's own unverified address.
 */
function sendAction(codes: OtpCodes, o: ResolvedEmailOtpOptions): Action {
  return async (ctx) => {
    const type = (ctx.body.type ?? 'sign-in') as EmailOtpType;
    if (!TYPES.includes(type)) throw emailOtpError('EMAIL_OTP_TYPE_INVALID');
    const adapter = storageOf(ctx);
    let address: string;
    let cookies: ActionResult['cookies'] = [];
    if (type === 'email-verification') {
      const caller = await signedIn(ctx);
      cookies = caller.cookies;
      address = parseEmailAddress(caller.user.email ?? '') ?? '';
      if (!address) throw emailOtpError('EMAIL_OTP_NO_EMAIL');
      if (!caller.user.emailVerified) await deliver(ctx, codes, o, target(type, address), true);
    } else {
      address = addressOf(ctx);
      const user = await adapter.getUserByEmail(address);
      if (type === 'sign-in') {
        const redirectTo = await allowSignIn(ctx, {
          user: user ?? { id: '', email: address },
          account: { provider: EMAIL_OTP_PROVIDER, providerAccountId: address, type: 'email' },
          email: { verificationRequest: true },
        });
        if (redirectTo !== undefined) return deniedWithRedirect(ctx, redirectTo);
      }
      const always = type === 'sign-in' && o.signUp;
      if (always || user) await deliver(ctx, codes, o, target(type, address), always);
    }
    return done(ctx, {}, nextPage(ctx, type, address), cookies);
  };
}

/** A wrong code counts as a failed attempt on the login limiter too. */
async function checked(ctx: RouteContext, codes: OtpCodes, t: OtpTarget): Promise<void> {
  try {
    await codes.check(ctx, t, ctx.body.code);
  } catch (error) {
    await ctx.attempt?.failed();
    await emit(ctx, 'onSignInFailed', {
      provider: EMAIL_OTP_PROVIDER,
      identifier: t.address,
      reason: 'invalid-credentials',
    });
    throw error;
  }
}

/** `POST /email-otp/sign-in {email, code, callbackUrl?}`: ends in `completeSignIn` (the code proves the address). */
function signInAction(codes: OtpCodes, o: ResolvedEmailOtpOptions): Action {
  return async (ctx) => {
    const address = addressOf(ctx);
    await checked(ctx, codes, target('sign-in', address));
    const adapter = storageOf(ctx);
    const existing = await adapter.getUserByEmail(address);
    if (!existing && !o.signUp) throw otpError('OTP_INVALID');
    const account = { provider: EMAIL_OTP_PROVIDER, providerAccountId: address, type: 'email' as const };
    return completeSignIn(ctx, {
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
  };
}

/** `POST /email-otp/verify-email {code}` (signed in): marks the user's own address verified. */
function verifyEmailAction(codes: OtpCodes): Action {
  return async (ctx) => {
    const caller = await signedIn(ctx);
    const address = parseEmailAddress(caller.user.email ?? '');
    if (!address) throw emailOtpError('EMAIL_OTP_NO_EMAIL');
    await checked(ctx, codes, target('email-verification', address));
    const adapter = storageOf(ctx);
    const user = caller.user.emailVerified
      ? caller.user
      : ((await adapter.updateUser(caller.user.id, { emailVerified: new Date(ctx.auth.clock.now()) })) ?? caller.user);
    await emit(ctx, 'onEmailVerified', { user, email: address });
    return done(ctx, {}, await resolveCallbackUrl(ctx, ctx.body.callbackUrl), caller.cookies);
  };
}

/**
 * `POST /email-otp/reset-password {email, code, password}`: sets the password, ends every earlier session and signs
 * in through `completeSignIn` (the code proves the address: credentials added while it was unverified are removed).
 */
function resetPasswordAction(codes: OtpCodes, o: ResolvedEmailOtpOptions): Action {
  return async (ctx) => {
    const address = addressOf(ctx);
    const adapter = storageOf(ctx);
    const passwords = passwordAccounts(adapter, { minLength: o.minPasswordLength });
    if (typeof ctx.body.password !== 'string' || ctx.body.password.length < o.minPasswordLength)
      throw authError('INVALID_REQUEST', `Use at least ${o.minPasswordLength} characters`);
    // The app's password checks (a breached-password plugin) first: a refused password does not use up the code.
    for (const check of ctx.auth.hooks.checkNewPassword) await check(ctx.body.password, ctx);
    await checked(ctx, codes, target('forget-password', address));
    const user = await adapter.getUserByEmail(address);
    if (!user) throw otpError('OTP_INVALID');
    const password = ctx.body.password;
    return completeSignIn(ctx, {
      user,
      account: { provider: PASSWORD_PROVIDER, providerAccountId: user.id, type: 'credentials' },
      emailProven: true,
      isNewUser: false,
      callbackUrl: await resolveCallbackUrl(ctx, ctx.body.callbackUrl),
      persist: async () => {
        await ctx.auth.strategy.revokeUser(user.id);
        await passwords.setPassword(user.id, password);
        ctx.auth.logger.warn(`[auth] security event password-reset: user ${user.id}`);
        await emit(ctx, 'onPasswordReset', { user });
        return (await adapter.getUser(user.id)) ?? user;
      },
    });
  };
}

const attemptOn =
  (identifier: (ctx: RouteContext) => string | (() => Promise<string>)) =>
  (ctx: RouteContext): RouteRateLimit | undefined => {
    const { login } = ctx.auth.limiters;
    return login ? { limiter: login, mode: 'attempt', identifier: identifier(ctx) } : undefined;
  };
const byEmail = attemptOn((ctx) => parseEmailAddress(ctx.body.email) ?? '');

const signInView: View = (_ctx, p) => signInPage(p);
const verifyView: View = async (ctx, p) => {
  const { user } = await ctx.auth.readSession(ctx.request);
  return verifyEmailPage({ ...p, email: user?.email ?? '', verified: Boolean(user?.emailVerified) });
};

/** The route table of `emailOTP()`. */
export function emailOtpRoutes(o: ResolvedEmailOtpOptions): Record<string, PluginRoute> {
  const codes = otpCodes(o.policy, o.storage);
  const resetView: View = (_ctx, p) => resetPasswordPage({ ...p, minPasswordLength: o.minPasswordLength });
  const sendView: View = (ctx, p) =>
    ctx.body.type === 'forget-password'
      ? resetView(ctx, p)
      : ctx.body.type === 'email-verification'
        ? verifyView(ctx, p)
        : signInView(ctx, p);
  return {
    'email-otp/send': {
      POST: withPage(o, sendView, sendAction(codes, o)),
      rateLimit: (ctx) => {
        const limiter = ctx.auth.limiters.emailVerification;
        return limiter ? { limiter, mode: 'count', identifier: parseEmailAddress(ctx.body.email) ?? '' } : undefined;
      },
    },
    'email-otp/sign-in': {
      GET: (ctx) => page(ctx, o, signInView),
      POST: withPage(o, signInView, signInAction(codes, o)),
      rateLimit: byEmail,
    },
    'email-otp/reset-password': {
      GET: (ctx) => page(ctx, o, resetView),
      POST: withPage(o, resetView, resetPasswordAction(codes, o)),
      rateLimit: byEmail,
    },
    'email-otp/verify-email': {
      GET: async (ctx) => {
        const caller = await signedIn(ctx);
        const shown = await page(ctx, o, verifyView);
        return { ...shown, cookies: [...caller.cookies, ...(shown.cookies ?? [])] };
      },
      POST: withPage(o, verifyView, verifyEmailAction(codes)),
      rateLimit: attemptOn(
        (ctx) => async () => `email-otp:${(await ctx.auth.readSession(ctx.request)).user?.id ?? ''}`,
      ),
    },
  };
}
