/**
 * `@framework/testing`: test helpers for apps built with the kit.
 * Not built yet: this package exports nothing so far.
 * @module
 */
export {};
