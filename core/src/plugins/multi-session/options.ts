/**
 * The options of `multiSession()`.
 * @module
 */
import { AuthConfigError } from '../../plugin-kit.js';

/** Options of `multiSession()`. */
export interface MultiSessionOptions {
  /**
   * How many accounts one browser may hold signed in at once, the active one included: an integer from 1 to 20.
   * Default 5. A sign-in that would go past it ends the session of the account added to the browser longest ago
   * (its session is revoked, not only forgotten); the new sign-in always succeeds.
   */
  maximumSessions?: number;
}

/** The options with defaults applied. */
export interface ResolvedMultiSessionOptions {
  maximumSessions: number;
}

/** The default of {@link MultiSessionOptions.maximumSessions}. */
export const DEFAULT_MAXIMUM_SESSIONS = 5;
/** The largest accepted `maximumSessions`: the sealed cookie holding the others stays far below 4 KB. */
const MAXIMUM_SESSIONS_LIMIT = 20;

/**
 * Checks and completes the options.
 * @throws AuthConfigError (`INVALID_CONFIG`) naming the option at fault.
 */
export function resolveMultiSessionOptions(options: MultiSessionOptions): ResolvedMultiSessionOptions {
  const fail = (what: string) => new AuthConfigError(`Invalid auth config: multiSession(): ${what}`);
  if (typeof options !== 'object' || options === null) throw fail('needs an options object');
  const max = options.maximumSessions ?? DEFAULT_MAXIMUM_SESSIONS;
  if (!Number.isInteger(max) || max < 1 || max > MAXIMUM_SESSIONS_LIMIT)
    throw fail(`maximumSessions must be an integer from 1 to ${MAXIMUM_SESSIONS_LIMIT}`);
  return { maximumSessions: max };
}
