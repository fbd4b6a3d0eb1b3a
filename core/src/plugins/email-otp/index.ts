/**
 * `@framework/auth/plugins/email-otp`: sign in, verify an email and reset a password with a code sent by email.
 * @module
 */
export { emailOTP, type EmailOtpExtension } from './plugin.js';
export type { EmailOtpMail, EmailOtpOptions, EmailOtpType } from './options.js';
export { EMAIL_OTP_ERRORS, type EmailOtpErrorCode } from './errors.js';
export { EMAIL_OTP_PROVIDER } from './routes.js';
