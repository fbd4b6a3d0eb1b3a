/**
 * `@framework/auth/plugins/one-tap`: sign in with the ID token of Google's One Tap / "Sign in with Google".
 * @module
 */
export { oneTap, GOOGLE_ISSUERS, GOOGLE_JWKS_URL, ONE_TAP_PROVIDER, type OneTapOptions } from './plugin.js';
export { ONE_TAP_ERRORS, type OneTapErrorCode } from './errors.js';
