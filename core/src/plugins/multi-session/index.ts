/**
 * `@framework/auth/plugins/multi-session`: several accounts signed in on one browser; list them, switch the active
 * one, sign one out.
 * @module
 */
export { multiSession, MULTI_SESSION_API } from './plugin.js';
export type { MultiSessionOptions } from './options.js';
export { DEFAULT_MAXIMUM_SESSIONS } from './options.js';
export type { DeviceSessionInfo } from './info.js';
export { MULTI_SESSION_ERRORS, type MultiSessionErrorCode } from './errors.js';
