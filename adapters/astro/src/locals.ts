/**
 * The `locals` that `authMiddleware` sets, for `App.Locals`.
 * @module
 */
import type { Session, User } from '@framework/auth';

/**
 * What `authMiddleware` puts on `Astro.locals` / `context.locals`. Merge it into `App.Locals` (in `src/env.d.ts`)
 * so pages, endpoints and later middleware see the types.
 * @example
 * ```ts
 * // src/env.d.ts
 * type AuthLocals = import('@framework/astro').AuthLocals;
 * declare namespace App {
 *   interface Locals extends AuthLocals {}
 * }
 * ```
 */
export interface AuthLocals {
  /** The signed-in user, or null. */
  user: User | null;
  /** The session (`{user, expires}`), or null; set when `user` is. */
  session: Session | null;
}
