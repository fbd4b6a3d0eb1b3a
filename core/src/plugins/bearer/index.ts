/**
 * `@framework/auth/plugins/bearer`: sessions carried in `Authorization: Bearer` by mobile and desktop clients.
 * @module
 */
export { bearer, type BearerExtension } from './plugin.js';
export { BEARER_ERRORS, type BearerErrorCode } from './errors.js';
export { readBearerToken, isBearerRequest, MAX_AUTHORIZATION, MODE_HEADER, TOKEN_HEADER } from './token.js';
