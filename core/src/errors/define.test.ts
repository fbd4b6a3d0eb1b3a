import { describe, expect, expectTypeOf, it } from 'vitest';
import { AUTH_ERRORS, statusOf, type AuthErrorCode } from '../error-codes.js';
import { AuthConfigError, AuthError } from '../errors.js';
import { pageErrorCode } from '../pages/messages.js';
import { TWO_FACTOR_ERRORS } from '../plugins/two-factor/errors.js';
import { PASSKEY_ERRORS } from '../plugins/passkey/errors.js';
import { CAPTCHA_ERRORS } from '../plugins/captcha/errors.js';
import { EMAIL_OTP_ERRORS } from '../plugins/email-otp/errors.js';
import { PWNED_PASSWORD_ERRORS } from '../plugins/have-i-been-pwned/errors.js';
import { OTP_ERRORS, otpError } from '../plugins/otp/errors.js';
import { USER_FIELD_ERRORS } from '../user-fields/errors.js';
import { authError } from './auth-error.js';
import { defineErrorCodes, type ErrorCodesOf } from './define.js';

describe('defineErrorCodes', () => {
  const table = defineErrorCodes({
    DEFINE_TEST_QUOTA: { status: 429, message: 'Quota exceeded' },
    DEFINE_TEST_PAGE: { status: 400, message: 'Bad code', page: 'Verification' },
  });

  it('makes AuthErrors with the table status and message, a detail message, headers and cause', () => {
    const plain = table.error('DEFINE_TEST_QUOTA');
    expect(plain).toBeInstanceOf(AuthError);
    expect(plain.toJSON()).toEqual({ error: { code: 'DEFINE_TEST_QUOTA', message: 'Quota exceeded' } });
    expect(plain.status).toBe(429);
    expect(table.error('DEFINE_TEST_QUOTA', 'Only 10 a day').message).toBe('Only 10 a day');
    const cause = new Error('redis down');
    const detailed = table.error('DEFINE_TEST_QUOTA', { headers: { 'retry-after': '60' }, cause });
    expect(detailed.message).toBe('Quota exceeded');
    expect(detailed.getResponse().headers.get('retry-after')).toBe('60');
    expect(detailed.cause).toBe(cause);
    expectTypeOf<ErrorCodesOf<typeof table>>().toEqualTypeOf<'DEFINE_TEST_QUOTA' | 'DEFINE_TEST_PAGE'>();
    // @ts-expect-error a code the table does not define
    expect(() => table.error('DEFINE_TEST_OTHER')).toThrow();
  });

  it('registers the codes: statusOf and the page code know them wherever the error is answered', () => {
    expect(statusOf('DEFINE_TEST_QUOTA')).toBe(429);
    expect(pageErrorCode('DEFINE_TEST_PAGE')).toBe('Verification');
    expect(pageErrorCode('DEFINE_TEST_QUOTA')).toBe('Default');
    expect(new AuthError('x', { code: 'DEFINE_TEST_QUOTA' as never }).status).toBe(429);
    expect(statusOf('DEFINE_TEST_NEVER_DEFINED')).toBe(500);
  });

  it("registers the built-in plugins' codes and page codes", () => {
    expect(statusOf('TWO_FACTOR_LOCKED')).toBe(429);
    expect(TWO_FACTOR_ERRORS.error('TWO_FACTOR_ALREADY_ENABLED').status).toBe(409);
    expect(pageErrorCode('PASSKEY_VERIFICATION_FAILED')).toBe('PasskeyError');
    expect(PASSKEY_ERRORS.error('PASSKEY_VERIFICATION_FAILED').status).toBe(400);
  });

  it('registers the codes of one-time codes, email OTP, captcha, breached passwords and custom user fields', () => {
    const statuses = Object.fromEntries(
      [OTP_ERRORS, EMAIL_OTP_ERRORS, CAPTCHA_ERRORS, PWNED_PASSWORD_ERRORS, USER_FIELD_ERRORS].flatMap((table) =>
        Object.keys(table.codes).map((code) => [code, statusOf(code)]),
      ),
    );
    expect(statuses).toEqual({
      OTP_INVALID: 401,
      OTP_TOO_MANY_ATTEMPTS: 429,
      OTP_SEND_FAILED: 502,
      EMAIL_OTP_TYPE_INVALID: 400,
      EMAIL_OTP_EMAIL_INVALID: 400,
      EMAIL_OTP_NO_EMAIL: 400,
      CAPTCHA_REQUIRED: 400,
      CAPTCHA_FAILED: 403,
      CAPTCHA_UNAVAILABLE: 503,
      PASSWORD_BREACHED: 400,
      PASSWORD_CHECK_UNAVAILABLE: 503,
      USER_FIELD_INVALID: 400,
      USER_FIELD_REQUIRED: 400,
      USER_FIELD_NOT_INPUT: 400,
      USER_FIELD_UNKNOWN: 400,
      USER_FIELD_TAKEN: 409,
    });
    const e = otpError('OTP_INVALID');
    expect([e.code, e.status, e.message]).toEqual(['OTP_INVALID', 401, OTP_ERRORS.codes.OTP_INVALID.message]);
    expect(USER_FIELD_ERRORS.error('USER_FIELD_TAKEN', 'This plan is taken').toJSON()).toEqual({
      error: { code: 'USER_FIELD_TAKEN', message: 'This plan is taken' },
    });
    // The codes are members of AuthErrorCode (the augmentations beside each table).
    expectTypeOf<
      'OTP_INVALID' | 'CAPTCHA_FAILED' | 'PASSWORD_BREACHED' | 'USER_FIELD_TAKEN'
    >().toMatchTypeOf<AuthErrorCode>();
  });

  it("reads the core's page codes from its table", () => {
    expect(pageErrorCode('INVALID_CREDENTIALS')).toBe('CredentialsSignin');
    expect(pageErrorCode('CSRF_ORIGIN_MISMATCH')).toBe('MissingCSRF');
    expect(pageErrorCode('NOT_FOUND')).toBe('NotFound');
    expect(pageErrorCode('METHOD_NOT_ALLOWED')).toBe('Default');
  });

  it('allows the same entry twice and refuses a conflicting one with INVALID_CONFIG', () => {
    expect(() => defineErrorCodes({ DEFINE_TEST_QUOTA: { status: 429, message: 'Quota exceeded' } })).not.toThrow();
    const conflicting = () => defineErrorCodes({ DEFINE_TEST_QUOTA: { status: 403, message: 'Quota exceeded' } });
    expect(conflicting).toThrow(AuthConfigError);
    expect(conflicting).toThrow(/DEFINE_TEST_QUOTA/);
    expect(() => defineErrorCodes({ RATE_LIMITED: { status: 429, message: 'Slow down' } })).toThrow(AuthConfigError);
    expect(() => defineErrorCodes({ DEFINE_TEST_PAGE: { status: 400, message: 'Bad code' } })).toThrow(AuthConfigError);
    expect(statusOf('DEFINE_TEST_QUOTA')).toBe(429);
  });
});

describe('authError', () => {
  it("raises the core's codes with their table status and message", () => {
    const e = authError('EMAIL_TAKEN');
    expect([e.code, e.status, e.message]).toEqual(['EMAIL_TAKEN', 409, AUTH_ERRORS.EMAIL_TAKEN.message]);
    expect(authError('FORBIDDEN', 'Only owners').message).toBe('Only owners');
    // @ts-expect-error a plugin's code is raised through the plugin's table
    void (() => authError('TWO_FACTOR_LOCKED'));
  });
});
