/**
 * The auth engine's clock: the one source of "now" for every time decision (session expiry and refresh, emailed
 * tokens, rate limits, two-factor steps and lockouts, one-time codes, invitations, API-key expiry, passkey
 * challenges, signed JWTs). Production runs on {@link systemClock}; tests hand `createAuth({ clock })` a clock they
 * move (`@framework/testing`'s `ctx.clock`). This module is the only place in the core's time decisions that reads
 * `Date.now()` (`clock.test.ts` scans the sources for strays).
 * @module
 */

/**
 * A source of the current time. `now()` answers milliseconds since the Unix epoch (what `Date.now()` answers), and
 * must not go backwards between two calls of one request. Called once or twice per request: keep it cheap (no
 * allocation).
 * @example
 * ```ts
 * let t = Date.parse('2030-01-01T00:00:00Z');
 * const clock: AuthClock = { now: () => t };
 * const auth = createAuth({ adapter, clock, providers: [] });
 * t += 25 * 3600 * 1000; // a day later for every token, session and code of `auth`
 * ```
 */
export interface AuthClock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

/** The production clock: `Date.now()`. The default of `createAuth({ clock })`. */
export const systemClock: AuthClock = { now: () => Date.now() };

/** `clock.now()` as a `Date`. */
export const dateOf = (clock: AuthClock): Date => new Date(clock.now());

/** `clock.now()` in whole seconds since the epoch (JWT `iat`/`exp`, OAuth `expires_at`). */
export const secondsOf = (clock: AuthClock): number => Math.floor(clock.now() / 1000);
