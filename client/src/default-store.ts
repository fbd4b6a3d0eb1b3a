/**
 * The store the framework bindings use when none is passed: one
 * `createAuthStore()` per page, with the default `basePath` (`/auth`) and the
 * page's origin, created on first use.
 *
 * The bindings import the client through the package's own name, so a build
 * keeps it external: the app, `signIn` / `signOut` and every binding share
 * one copy of the client (its in-page change events), in ESM and CommonJS.
 * @module
 */
import { createAuthStore, type AuthStore } from '@framework/auth-client';

let shared: AuthStore | undefined;

/**
 * The page's default auth store, created on first call. It starts (fetches
 * the session) only when something subscribes.
 *
 * @example
 * ```ts
 * defaultAuthStore().subscribe(({ status }) => console.log(status));
 * ```
 */
export function defaultAuthStore(): AuthStore {
  return (shared ??= createAuthStore());
}
