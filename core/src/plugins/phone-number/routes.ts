/**
 * The routes of `phoneNumber()` under `basePath`: send a code by SMS, sign in with it (creating the account when
 * sign-up is on), and add (verify) a number for the signed-in user; each POST also answers a no-JS form.
 * @module
 * @internal
 */
import {
  allowSignIn,
  completeSignIn,
  csrfFor,
  deniedWithRedirect,
  done,
  emit,
  pageLocale,
  resolveCallbackUrl,
  signedIn,
  signedInAsSelf,
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
  type OtpStorage,
  type OtpTarget,
} from '../otp/index.js';
import { PHONE_NUMBER_ERRORS } from './errors.js';
import { phoneNumberMessages } from './messages.js';
import type { PhoneOtpMessage, PhoneOtpPurpose, ResolvedPhoneNumberOptions } from './options.js';
import { signInPage, verifyPage, type PhonePageInput } from './pages.js';
import { toE164 } from './parse.js';
import type { PhoneNumberStorage } from './types.js';

/** The provider id sign-ins with a phone code carry (`account.provider`, events, the `signIn` callback). */
export const PHONE_NUMBER_PROVIDER = 'phone-number';

const PURPOSES: readonly PhoneOtpPurpose[] = ['sign-in', 'verification'];
const NO_STORE = { 'cache-control': 'no-store' };

/** Everything the routes share. */
interface Deps {
  o: ResolvedPhoneNumberOptions;
  phones: PhoneNumberStorage;
  codes: OtpCodes;
}

/**
 * The code's target. A sign-in code is bound to the number; a verification code to the number and the user who
 * asked for it, so it never signs anyone in nor adds the number to another account.
 */
const signInTarget = (number: string): OtpTarget => ({ channel: 'phone', purpose: 'sign-in', address: number });
const verifyTarget = (userId: string, number: string): OtpTarget => ({
  channel: 'phone',
  purpose: 'verification',
  address: `${number} ${userId}`,
});

function numberOf(ctx: RouteContext, o: ResolvedPhoneNumberOptions): string {
  const number = toE164(ctx.body.phoneNumber, o.defaultCountry);
  if (!number) throw PHONE_NUMBER_ERRORS.error('PHONE_NUMBER_INVALID');
  return number;
}

/** Renders one of the pages for a request. */
type View = (ctx: RouteContext, p: PhonePageInput) => string | Promise<string>;

/** A page with a fresh CSRF token, the number and `callbackUrl` from the body or the query. */
async function page(ctx: RouteContext, d: Deps, render: View, error?: string): Promise<ActionResult> {
  const { token, cookie } = await csrfFor(ctx);
  const q = ctx.url.searchParams;
  const given = ctx.body.phoneNumber ?? q.get('phoneNumber') ?? undefined;
  const callbackUrl = ctx.body.callbackUrl ?? q.get('callbackUrl') ?? undefined;
  const input: PhonePageInput = {
    basePath: ctx.auth.config.basePath,
    csrfToken: token,
    phoneNumber: given === undefined ? undefined : (toE164(given, d.o.defaultCountry) ?? undefined),
    callbackUrl,
    error,
    digits: d.o.policy.otpLength,
    locale: pageLocale(ctx),
  };
  return { status: 200, html: await render(ctx, input), cookies: cookie ? [cookie] : [], headers: NO_STORE };
}

/** For browsers, a refused POST (4xx) shows its page again with the message and the same status. */
function withPage(d: Deps, render: View, action: Action): Action {
  return withRefusalPage(action, (ctx, message) => page(ctx, d, render, message), [phoneNumberMessages]);
}

/** Sends a code for `t` to `number` by SMS through the app's hook (see `sendCode`). */
function deliver(ctx: RouteContext, d: Deps, t: OtpTarget, number: string, awaited: boolean) {
  const delivery: CodeDelivery<PhoneOtpMessage> = {
    to: number,
    channel: 'sms',
    kind: 'sms-otp',
    hookName: 'phoneNumber: sendOTP',
    data: (code, expiresAt) => ({ phoneNumber: number, code, purpose: t.purpose as PhoneOtpPurpose, expiresAt }),
    send: (sms) => d.o.send(sms),
  };
  return sendCode(ctx, d.codes, t, delivery, awaited);
}

/** Where a browser goes after a code was sent: the page that asks for it. */
function nextPage(ctx: RouteContext, purpose: PhoneOtpPurpose, number: string): string {
  const query = new URLSearchParams({ phoneNumber: number });
  if (ctx.body.callbackUrl) query.set('callbackUrl', ctx.body.callbackUrl);
  const path = purpose === 'sign-in' ? 'sign-in' : 'verify';
  return `${ctx.auth.config.basePath}/phone-number/${path}?${query}`;
}

/** The user who holds `number` verified, or null. */
async function holderOf(ctx: RouteContext, d: Deps, number: string) {
  const record = await d.phones.getByNumber(number);
  return record?.verified ? storageOf(ctx).getUser(record.userId) : null;
}

const accountOf = (number: string) => ({
  provider: PHONE_NUMBER_PROVIDER,
  providerAccountId: number,
  type: 'credentials' as const,
});

/**
 * `POST /phone-number/send-otp {phoneNumber, purpose}`: the same answer whether or not the number has an account.
 * `sign-in` texts any number while sign-up is on (else only numbers of accounts); `verification` (signed in) texts
 * the number the user wants to add.
 */
function sendAction(d: Deps): Action {
  return async (ctx) => {
    const purpose = (ctx.body.purpose ?? 'sign-in') as PhoneOtpPurpose;
    if (!PURPOSES.includes(purpose)) throw PHONE_NUMBER_ERRORS.error('PHONE_NUMBER_PURPOSE_INVALID');
    const number = numberOf(ctx, d.o);
    if (purpose === 'verification') {
      const caller = await signedInAsSelf(ctx);
      await deliver(ctx, d, verifyTarget(caller.user.id, number), number, true);
      return done(ctx, {}, nextPage(ctx, purpose, number), caller.cookies);
    }
    const user = await holderOf(ctx, d, number);
    const redirectTo = await allowSignIn(ctx, { user: user ?? { id: '', email: null }, account: accountOf(number) });
    if (redirectTo !== undefined) return deniedWithRedirect(ctx, redirectTo);
    if (d.o.signUp || user) await deliver(ctx, d, signInTarget(number), number, d.o.signUp);
    return done(ctx, {}, nextPage(ctx, purpose, number));
  };
}

/** A wrong code counts as a failed attempt on the login limiter too. */
async function checked(ctx: RouteContext, d: Deps, t: OtpTarget, number: string): Promise<void> {
  try {
    await d.codes.check(ctx, t, ctx.body.code);
  } catch (error) {
    await ctx.attempt?.failed();
    await emit(ctx, 'onSignInFailed', {
      provider: PHONE_NUMBER_PROVIDER,
      identifier: number,
      reason: 'invalid-credentials',
    });
    throw error;
  }
}

/** `POST /phone-number/sign-in {phoneNumber, code, callbackUrl?}`: ends in `completeSignIn`. */
function signInAction(d: Deps): Action {
  return async (ctx) => {
    const number = numberOf(ctx, d.o);
    await checked(ctx, d, signInTarget(number), number);
    const adapter = storageOf(ctx);
    const existing = await holderOf(ctx, d, number);
    if (!existing && !d.o.signUp) throw otpError('OTP_INVALID');
    return completeSignIn(ctx, {
      user: existing ?? { id: '', email: null },
      account: accountOf(number),
      isNewUser: !existing,
      callbackUrl: await resolveCallbackUrl(ctx, ctx.body.callbackUrl),
      persist: async () => {
        if (existing) return existing;
        // The code proved the number: an unverified claim of another account gives way.
        const claim = await d.phones.getByNumber(number);
        if (claim && !claim.verified) await d.phones.remove(claim.userId);
        const user = await adapter.createUser({ email: null, emailVerified: null });
        if (
          await d.phones.set({
            userId: user.id,
            phoneNumber: number,
            verified: true,
            updatedAt: new Date(ctx.auth.clock.now()),
          })
        )
          return user;
        await adapter.deleteUser(user.id);
        throw PHONE_NUMBER_ERRORS.error('PHONE_NUMBER_TAKEN');
      },
    });
  };
}

/** `POST /phone-number/verify {phoneNumber, code}` (signed in): the number becomes the user's, verified. */
function verifyAction(d: Deps): Action {
  return async (ctx) => {
    const caller = await signedInAsSelf(ctx);
    const number = numberOf(ctx, d.o);
    await checked(ctx, d, verifyTarget(caller.user.id, number), number);
    const holder = await d.phones.getByNumber(number);
    if (holder && holder.userId !== caller.user.id) {
      if (holder.verified) throw PHONE_NUMBER_ERRORS.error('PHONE_NUMBER_TAKEN');
      await d.phones.remove(holder.userId);
    }
    const record = {
      userId: caller.user.id,
      phoneNumber: number,
      verified: true,
      updatedAt: new Date(ctx.auth.clock.now()),
    };
    if (!(await d.phones.set(record))) throw PHONE_NUMBER_ERRORS.error('PHONE_NUMBER_TAKEN');
    ctx.auth.logger.warn(`[auth] security event phone-number-verified: user ${caller.user.id}`);
    return done(
      ctx,
      { phoneNumber: number },
      await resolveCallbackUrl(ctx, ctx.body.callbackUrl ?? `${ctx.auth.config.basePath}/phone-number/verify`),
      caller.cookies,
    );
  };
}

const attemptOn =
  (identifier: (ctx: RouteContext) => string | (() => Promise<string>)) =>
  (ctx: RouteContext): RouteRateLimit | undefined => {
    const { login } = ctx.auth.limiters;
    return login ? { limiter: login, mode: 'attempt', identifier: identifier(ctx) } : undefined;
  };

/** The route table of `phoneNumber()`. */
export function phoneNumberRoutes(
  o: ResolvedPhoneNumberOptions,
  phones: PhoneNumberStorage,
  otpStorage: OtpStorage,
): Record<string, PluginRoute> {
  const d: Deps = { o, phones, codes: otpCodes(o.policy, otpStorage) };
  const signInView: View = (_ctx, p) => signInPage(p);
  const verifyView: View = async (ctx, p) => {
    const { user } = await ctx.auth.readSession(ctx.request);
    const current = user ? await phones.getByUser(user.id) : null;
    return verifyPage({ ...p, current });
  };
  const sendView: View = (ctx, p) => (ctx.body.purpose === 'verification' ? verifyView(ctx, p) : signInView(ctx, p));
  const number = (ctx: RouteContext) => toE164(ctx.body.phoneNumber, o.defaultCountry) ?? '';
  return {
    'phone-number/send-otp': {
      POST: withPage(d, sendView, sendAction(d)),
      rateLimit: (ctx) => {
        const limiter = ctx.auth.limiters.emailVerification;
        return limiter ? { limiter, mode: 'count', identifier: number(ctx) } : undefined;
      },
    },
    'phone-number/sign-in': {
      GET: (ctx) => page(ctx, d, signInView),
      POST: withPage(d, signInView, signInAction(d)),
      rateLimit: attemptOn(number),
    },
    'phone-number/verify': {
      GET: async (ctx) => {
        const caller = await signedIn(ctx);
        const shown = await page(ctx, d, verifyView);
        return { ...shown, cookies: [...caller.cookies, ...(shown.cookies ?? [])] };
      },
      POST: withPage(d, verifyView, verifyAction(d)),
      rateLimit: attemptOn(
        (ctx) => async () => `phone-number:${(await ctx.auth.readSession(ctx.request)).user?.id ?? ''}`,
      ),
    },
  };
}
