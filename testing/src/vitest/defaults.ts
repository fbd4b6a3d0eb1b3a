/**
 * The defaults of the matchers for responses that no test context sent (e.g. `auth.handler(new Request(…))`).
 * @module
 */
import type { Auth } from '@framework/auth';

/** What {@link configureMatchers} sets. */
export interface MatcherDefaults {
  /** The kit's auth that `toBeSignedInAs` reads sessions with. */
  auth?: Auth;
  /** The app's origin, for `toRedirectTo` and `toBeSignedInAs`. Default `http://localhost`. */
  origin?: string;
}

let current: MatcherDefaults = {};

/**
 * Sets the auth and origin the matchers use for a response that no test context sent, and a cookie jar; an
 * option of the matcher itself wins. Call it in a setup file or a `beforeAll`.
 *
 * @returns a function that restores the previous defaults.
 * @example
 * ```ts
 * const restore = configureMatchers({ auth, origin: 'http://app.test' });
 * afterAll(restore);
 * ```
 */
export function configureMatchers(defaults: MatcherDefaults): () => void {
  const previous = current;
  current = { ...current, ...defaults };
  return () => void (current = previous);
}

/** The current defaults. */
export function matcherDefaults(): MatcherDefaults {
  return current;
}

/** The default origin. */
export const DEFAULT_ORIGIN = 'http://localhost';

/** What a matcher answers (vitest's expectation result). */
export interface MatcherResult {
  pass: boolean;
  message: () => string;
}
