/**
 * The error codes the client types from the server's `typeof auth`: the core's codes and those of the plugins given
 * to `createAuth`, on every result of `createAuthClient<typeof auth>()`. The `expectTypeOf` checks fail the
 * repository's typecheck (`tsc -p tsconfig.json`); the last test runs a refused sign-in through a real `auth.handler`.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  AUTH_ERRORS,
  createAuth,
  createMemoryAdapter,
  passwordAccounts,
  USER_FIELD_ERRORS,
  type CoreErrorCode,
} from '@framework/auth';
import { TWO_FACTOR_ERRORS, twoFactor } from '@framework/auth/plugins/two-factor';
import { organizations } from '@framework/auth/plugins/organizations';
import { CAPTCHA_ERRORS, captcha } from '@framework/auth/plugins/captcha';
import { EMAIL_OTP_ERRORS, emailOTP } from '@framework/auth/plugins/email-otp';
import { PWNED_PASSWORD_ERRORS, haveIBeenPwned } from '@framework/auth/plugins/have-i-been-pwned';
import { OTP_ERRORS } from '@framework/auth/plugins/otp';
import {
  createAuthClient,
  type AccountResult,
  type AuthErrorCodeOf,
  type ClientErrorCode,
  type ResultErrorCode,
  type SignInResult,
} from '../src/index.js';
import * as twoFactorClient from '../src/plugins/two-factor.js';
import * as emailOtpClient from '../src/plugins/email-otp.js';
import * as organizationsClient from '../src/plugins/organizations.js';
import * as adminClient from '../src/plugins/admin.js';
import { browserFetch } from './engine-fetch.js';

// Only the types of these engines are read, as an app's client code does; the functions never run.
/* eslint-disable @typescript-eslint/no-unused-vars */
const plainAuth = () => createAuth({ adapter: createMemoryAdapter(), providers: [] });
const pluginAuth = () =>
  createAuth({ adapter: createMemoryAdapter(), providers: [], plugins: [twoFactor(), organizations({} as never)] });
const moreAuth = () =>
  createAuth({
    adapter: createMemoryAdapter(),
    providers: [],
    plugins: [
      emailOTP({ sendVerificationOTP: () => {} }),
      captcha({ provider: 'turnstile', secretKey: 'secret' }),
      haveIBeenPwned(),
    ],
  });
const fieldsAuth = () =>
  createAuth({
    adapter: createMemoryAdapter(),
    providers: [],
    user: { additionalFields: { plan: { type: 'string' } } },
  });
/* eslint-enable @typescript-eslint/no-unused-vars */
type Plain = ReturnType<typeof plainAuth>;
type WithPlugins = ReturnType<typeof pluginAuth>;
type WithMore = ReturnType<typeof moreAuth>;
type WithFields = ReturnType<typeof fieldsAuth>;

type PluginCodes = keyof typeof TWO_FACTOR_ERRORS.codes | 'SLUG_TAKEN' | 'ALREADY_MEMBER' | 'INVITATION_EMAIL_MISMATCH';
type MoreCodes =
  | keyof typeof OTP_ERRORS.codes
  | keyof typeof EMAIL_OTP_ERRORS.codes
  | keyof typeof CAPTCHA_ERRORS.codes
  | keyof typeof PWNED_PASSWORD_ERRORS.codes;

describe('AuthErrorCodeOf', () => {
  it("is the core's codes for an engine without plugins", () => {
    expectTypeOf<AuthErrorCodeOf<Plain>>().toEqualTypeOf<CoreErrorCode>();
    expectTypeOf<'TWO_FACTOR_REQUIRED'>().not.toMatchTypeOf<AuthErrorCodeOf<Plain>>();
    expectTypeOf<'USER_FIELD_TAKEN'>().not.toMatchTypeOf<AuthErrorCodeOf<Plain>>();
    expect(Object.hasOwn(AUTH_ERRORS, 'TWO_FACTOR_REQUIRED')).toBe(false);
  });

  it('adds the codes of the plugins passed to createAuth', () => {
    expectTypeOf<AuthErrorCodeOf<WithPlugins>>().toEqualTypeOf<CoreErrorCode | PluginCodes>();
    expectTypeOf<'TWO_FACTOR_LOCKED'>().toMatchTypeOf<AuthErrorCodeOf<WithPlugins>>();
    expectTypeOf<'NOT_A_CODE'>().not.toMatchTypeOf<AuthErrorCodeOf<WithPlugins>>();
    expect(TWO_FACTOR_ERRORS.codes.TWO_FACTOR_LOCKED.status).toBe(429);
  });

  it("adds emailOTP()'s (with the shared one-time-code codes), captcha()'s and haveIBeenPwned()'s codes", () => {
    expectTypeOf<AuthErrorCodeOf<WithMore>>().toEqualTypeOf<CoreErrorCode | MoreCodes>();
    expectTypeOf<'OTP_INVALID' | 'EMAIL_OTP_NO_EMAIL' | 'CAPTCHA_FAILED' | 'PASSWORD_BREACHED'>().toMatchTypeOf<
      AuthErrorCodeOf<WithMore>
    >();
    expectTypeOf<'TWO_FACTOR_LOCKED'>().not.toMatchTypeOf<AuthErrorCodeOf<WithMore>>();
    expect(Object.keys(CAPTCHA_ERRORS.codes)).toEqual(['CAPTCHA_REQUIRED', 'CAPTCHA_FAILED', 'CAPTCHA_UNAVAILABLE']);
  });

  it("adds the custom user fields' codes when the engine declares fields", () => {
    expectTypeOf<AuthErrorCodeOf<WithFields>>().toEqualTypeOf<CoreErrorCode | keyof typeof USER_FIELD_ERRORS.codes>();
    expect(USER_FIELD_ERRORS.codes.USER_FIELD_TAKEN.status).toBe(409);
  });

  it('is string without a server type', () => {
    expectTypeOf<AuthErrorCodeOf>().toEqualTypeOf<string>();
    expectTypeOf<AuthErrorCodeOf<unknown>>().toEqualTypeOf<string>();
  });
});

describe('ResultErrorCode', () => {
  it("is the server's codes and the client's own, or string without a server type", () => {
    expectTypeOf<ResultErrorCode<WithPlugins>>().toEqualTypeOf<CoreErrorCode | PluginCodes | ClientErrorCode>();
    expectTypeOf<'FETCH_ERROR' | 'HTTP_502' | 'PASSKEY_CANCELLED'>().toMatchTypeOf<ResultErrorCode<Plain>>();
    expectTypeOf<ResultErrorCode>().toEqualTypeOf<string>();
    expectTypeOf<ResultErrorCode<{ id: string; plan: 'free' | 'pro' }>>().toEqualTypeOf<string>();
  });
});

type Client = ReturnType<typeof createAuthClient<WithPlugins>>;
type Code = ResultErrorCode<WithPlugins>;
type ErrorOf<F extends (...args: never[]) => Promise<{ error?: unknown }>> = Awaited<ReturnType<F>>['error'];

describe('createAuthClient<typeof auth>() results', () => {
  it('types the error of sign-in, sign-out and passkeys', () => {
    expectTypeOf<ErrorOf<Client['signIn']>>().toEqualTypeOf<Code | undefined>();
    expectTypeOf<ErrorOf<Client['signIn']['passkey']>>().toEqualTypeOf<Code | undefined>();
    expectTypeOf<ErrorOf<Client['signOut']>>().toEqualTypeOf<Code | undefined>();
    expectTypeOf<ErrorOf<Client['addPasskey']>>().toEqualTypeOf<Code | undefined>();
    expectTypeOf<Awaited<ReturnType<Client['signIn']>>>().toEqualTypeOf<SignInResult<Code>>();
  });

  it('types the error of every account action, keeping its parameters and data', () => {
    type Actions = Pick<
      Client,
      | 'signUp'
      | 'sendVerificationEmail'
      | 'requestPasswordReset'
      | 'resetPassword'
      | 'changePassword'
      | 'changeEmail'
      | 'verifyEmail'
      | 'undoEmailChange'
      | 'listSessions'
      | 'revokeSession'
      | 'revokeOtherSessions'
      | 'unlinkAccount'
      | 'deleteAccount'
    >;
    expectTypeOf<{ [K in keyof Actions]: ErrorOf<Actions[K]> }[keyof Actions]>().toEqualTypeOf<Code | undefined>();
    expectTypeOf<Parameters<Client['signUp']>>().toEqualTypeOf<Parameters<typeof import('../src/account.js').signUp>>();
    expectTypeOf<Awaited<ReturnType<Client['revokeSession']>>>().toEqualTypeOf<
      AccountResult<{ revoked: number }, Code>
    >();
  });

  it("types the error of the plugins' client actions bound with actions()", () => {
    const client = createAuthClient<WithPlugins>();
    const twoFactor = client.actions(twoFactorClient);
    expect(Object.keys(twoFactor).sort()).toEqual(Object.keys(twoFactorClient).sort());
    expectTypeOf<ErrorOf<typeof twoFactor.verifyTwoFactor>>().toEqualTypeOf<Code | undefined>();
    expectTypeOf<Awaited<ReturnType<typeof twoFactor.verifyTwoFactor>>['data']>().toEqualTypeOf<
      { url: string } | undefined
    >();
    expectTypeOf<Parameters<typeof twoFactor.verifyTwoFactor>>().toEqualTypeOf<
      Parameters<typeof twoFactorClient.verifyTwoFactor>
    >();
    expectTypeOf<
      ErrorOf<ReturnType<typeof client.actions<typeof organizationsClient>>['createOrganization']>
    >().toEqualTypeOf<Code | undefined>();
    expectTypeOf<ErrorOf<ReturnType<typeof client.actions<typeof adminClient>>['listUsers']>>().toEqualTypeOf<
      Code | undefined
    >();
    expectTypeOf<ErrorOf<ReturnType<typeof client.actions<typeof emailOtpClient>>['signInEmailOtp']>>().toEqualTypeOf<
      Code | undefined
    >();
    // A comparison with a code the server never answers is a type error.
    const check = (result: Awaited<ReturnType<typeof twoFactor.verifyTwoFactor>>) =>
      // @ts-expect-error 'TWO_FACTOR_LOCKD' is no code of this server
      result.error === 'TWO_FACTOR_LOCKD';
    expect(typeof check).toBe('function');
  });

  it('stays string without a server type', () => {
    const client = createAuthClient();
    expect(typeof client.actions(twoFactorClient).verifyTwoFactor).toBe('function');
    expectTypeOf<ErrorOf<typeof client.signIn>>().toEqualTypeOf<string | undefined>();
    expectTypeOf<ErrorOf<typeof client.signUp>>().toEqualTypeOf<string | undefined>();
    expectTypeOf<ErrorOf<ReturnType<typeof client.actions<typeof twoFactorClient>>['verifyTwoFactor']>>().toEqualTypeOf<
      string | undefined
    >();
  });
});

describe('typed codes through a real auth.handler', () => {
  it('a refused sign-in, a plugin refusal on sign-up and a bound plugin action answer their typed codes', async () => {
    const adapter = createMemoryAdapter();
    await passwordAccounts(adapter).register({ email: 'ada@example.com', password: 'analytical-engine' });
    const auth = createAuth({
      secret: 'client-error-codes-test-secret-0123456789abcdef',
      session: { strategy: 'database' },
      adapter,
      providers: [],
      emailAndPassword: {},
      plugins: [twoFactor(), captcha({ provider: 'turnstile', secretKey: 'secret', routes: ['/signup'] })],
      rateLimit: { login: false },
    });
    const client = createAuthClient<typeof auth>({ fetch: browserFetch(auth).fetch });
    type Typed = ResultErrorCode<typeof auth>;

    const refused = await client.signIn('credentials', {
      email: 'ada@example.com',
      password: 'wrong-password',
      redirect: false,
    });
    expectTypeOf(refused.error).toEqualTypeOf<Typed | undefined>();
    expect(refused).toEqual({ ok: false, status: 401, error: 'INVALID_CREDENTIALS' });

    const signUp = await client.signUp({ email: 'grace@example.com', password: 'a long enough password' });
    expectTypeOf(signUp.error).toEqualTypeOf<Typed | undefined>();
    expect(signUp).toEqual({ ok: false, status: 400, error: 'CAPTCHA_REQUIRED' });

    const verified = await client.actions(twoFactorClient).verifyTwoFactor({ code: '123456' });
    expectTypeOf(verified.error).toEqualTypeOf<Typed | undefined>();
    expect(verified).toEqual({ ok: false, status: 401, error: 'TWO_FACTOR_CHALLENGE_INVALID' });
  });
});
