/**
 * `@framework/auth/middleware`. This subpath is reserved; its feature has not been
 * built yet, so it exports nothing (see the package README for status).
 * @module
 */
export {};
