/**
 * `@framework/auth/plugins/phone-number`: sign in, sign up and add a number with a code sent by SMS; numbers in
 * E.164, parsed and validated with libphonenumber-js.
 * @module
 */
export { phoneNumber, type PhoneNumberExtension } from './plugin.js';
export type { PhoneNumberOptions, PhoneOtpMessage, PhoneOtpPurpose } from './options.js';
export { PHONE_NUMBER_ERRORS, type PhoneNumberErrorCode } from './errors.js';
export { PHONE_NUMBER_PROVIDER } from './routes.js';
export { toE164 } from './parse.js';
export type { PhoneNumberRecord, PhoneNumberStorage } from './types.js';
export { createMemoryPhoneNumberStorage } from './storage/memory.js';
export { createSqlPhoneNumberStorage, type SqlPhoneNumberStorageOptions } from './storage/sql.js';
