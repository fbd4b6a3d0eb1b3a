/**
 * `@framework/auth-client`: browser helpers and the nanostores auth store.
 * Not built yet: this package exports nothing so far.
 * @module
 */
export {};
