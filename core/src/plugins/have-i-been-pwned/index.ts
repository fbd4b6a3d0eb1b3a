/**
 * `@framework/auth/plugins/have-i-been-pwned`: refuse new passwords found in the Pwned Passwords corpus
 * (k-anonymity range API). See core/README.md "Breached passwords".
 * @module
 */
export { haveIBeenPwned, pwnedCount } from './plugin.js';
export type { HaveIBeenPwnedOptions } from './options.js';
export { PWNED_PASSWORD_ERRORS, type PwnedPasswordErrorCode } from './errors.js';
