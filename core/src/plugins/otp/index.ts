/**
 * `@framework/auth/plugins/otp`: the one code path of one-time codes that `emailOTP()` and `phoneNumber()` share
 * (issue, check, hashed storage on memory or SQL), for plugins of your own on other channels.
 * @module
 */
export { otpCodes, type OtpCodes, type OtpTarget } from './codes.js';
export { sendCode, type CodeDelivery } from './send.js';
export { withRefusalPage } from './refusal-page.js';
export { otpMessages } from './messages.js';
export { resolveOtpPolicy, type OtpPolicy, type OtpPolicyOptions } from './policy.js';
export { OTP_ERRORS, otpError, type OtpErrorCode } from './errors.js';
export type { OtpRecord, OtpStorage } from './types.js';
export { createMemoryOtpStorage } from './storage/memory.js';
export { createSqlOtpStorage, type SqlOtpStorageOptions } from './storage/sql.js';
