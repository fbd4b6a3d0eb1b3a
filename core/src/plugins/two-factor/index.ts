/**
 * `@framework/auth/plugins/two-factor`: TOTP two-factor authentication, backup codes and trusted browsers.
 * @module
 */
export { TWO_FACTOR_ERRORS } from './errors.js';
export { twoFactor, type TwoFactorExtension } from './plugin.js';
export type { TwoFactorOptions } from './options.js';
export type { TwoFactorLockoutOptions } from './lockout.js';
export type { TwoFactorRecord, TrustedDeviceRecord, TwoFactorStorage } from './types.js';
export { createMemoryTwoFactorStorage } from './storage/memory.js';
export { createSqlTwoFactorStorage, type SqlTwoFactorStorageOptions } from './storage/sql.js';
