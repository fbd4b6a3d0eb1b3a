/**
 * `@framework/auth/plugins/last-login-method`: remember how a person signed in last (a cookie, and optionally a
 * user field), and mark that method on the default sign-in page.
 * @module
 */
export {
  lastLoginMethod,
  lastLoginMethodField,
  LAST_LOGIN_METHOD_COOKIE,
  LAST_LOGIN_METHOD_MAX_AGE,
  type LastLoginMethodExtension,
  type LastLoginMethodOptions,
} from './plugin.js';
export { LAST_LOGIN_METHODS, isLastLoginMethod, type LastLoginMethod } from './methods.js';
