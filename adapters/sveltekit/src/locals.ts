/**
 * The `event.locals` that `authHandle` sets, for `App.Locals`.
 * @module
 */
import type { Session, User } from '@framework/auth';

/**
 * What `authHandle` puts on `event.locals`. Merge it into `App.Locals` in
 * `src/app.d.ts` so load functions and actions see the types.
 * @example
 * ```ts
 * // src/app.d.ts
 * import type { AuthLocals } from '@framework/sveltekit';
 * declare global {
 *   namespace App {
 *     interface Locals extends AuthLocals {}
 *   }
 * }
 * export {};
 * ```
 */
export interface AuthLocals {
  /** The request's session, read once per request and shared by every caller. */
  auth(): Promise<{ user: User | null; session: Session | null }>;
  /**
   * The signed-in user, or null. With `authHandle(auth, {lazy: true})` it
   * is known only after `await event.locals.auth()`; reading it earlier throws.
   */
  user: User | null;
  /** The session (`{user, expires}`), or null; known when `user` is. */
  session: Session | null;
}
