/**
 * `@framework/auth/client`: re-exports `@framework/auth-client`, the browser
 * helpers and the nanostores store (see that package's README for status).
 * @module
 */
export * from '@framework/auth-client';
