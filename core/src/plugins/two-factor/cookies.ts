/**
 * The two cookies of `twoFactor()`: the sign-in challenge between the first and the second factor (sealed,
 * HttpOnly, 5 minutes), and the "trusted device" cookie (`id.secret`, HttpOnly, 30 days, checked against storage).
 * @module
 * @internal
 */
import { expiredCookie, type OutCookie, seal, unseal, randomString } from '../../plugin-kit.js';
import type { AuthInternals } from '../../plugin-kit.js';

const PURPOSE = 'two-factor-challenge';

/** What the challenge cookie remembers of the interrupted sign-in. */
export interface Challenge {
  /** Random id: the key of the challenge's attempt counter, and what makes it single-use. */
  id: string;
  userId: string;
  provider: string | null;
  providerAccountId: string | null;
  callbackUrl: string;
  isNewUser: boolean;
  /**
   * The account the first factor's attempt counted against on the `login` limiter (normalised, e.g. the email), or
   * null. `verify` counts against the same (IP, account) budget, so a completed second factor settles the first
   * factor's attempt as a success. Sealed: never readable by the browser.
   */
  attemptIdentifier: string | null;
  /** When the challenge expires. */
  expiresAt: Date;
}

const secure = (auth: AuthInternals) => auth.config.cookies.sessionToken.options.secure;
const prefix = (auth: AuthInternals) => (secure(auth) ? '__Secure-' : '');
export const challengeCookieName = (auth: AuthInternals) => `${prefix(auth)}framework.two-factor`;
export const trustCookieName = (auth: AuthInternals) => `${prefix(auth)}framework.two-factor-trust`;

const attributes = (auth: AuthInternals): OutCookie['options'] => ({
  httpOnly: true,
  secure: secure(auth),
  sameSite: 'lax',
  path: auth.config.basePath || '/',
});

/** Seals a new challenge into its cookie. */
export async function challengeCookie(
  auth: AuthInternals,
  c: Omit<Challenge, 'id' | 'expiresAt'>,
  maxAge: number,
): Promise<OutCookie> {
  const payload = {
    jti: randomString(16),
    sub: c.userId,
    prv: c.provider,
    pid: c.providerAccountId,
    cb: c.callbackUrl,
    nu: c.isNewUser,
    aid: c.attemptIdentifier,
  };
  const value = await seal(payload, auth.signingKey, PURPOSE, maxAge, auth.clock);
  return { name: challengeCookieName(auth), value, options: { ...attributes(auth), maxAge } };
}

/** Opens the request's challenge cookie; null when missing, tampered, expired or malformed. */
export async function readChallenge(auth: AuthInternals, value: string | undefined): Promise<Challenge | null> {
  const p = await unseal(value, auth.signingKey, PURPOSE, auth.clock);
  if (
    !p ||
    typeof p.jti !== 'string' ||
    typeof p.sub !== 'string' ||
    typeof p.cb !== 'string' ||
    typeof p.exp !== 'number' ||
    (p.prv !== null && typeof p.prv !== 'string') ||
    (p.pid !== null && typeof p.pid !== 'string') ||
    (p.aid !== undefined && p.aid !== null && typeof p.aid !== 'string')
  )
    return null;
  return {
    id: p.jti,
    userId: p.sub,
    provider: p.prv as string | null,
    providerAccountId: p.pid as string | null,
    callbackUrl: p.cb,
    isNewUser: p.nu === true,
    attemptIdentifier: typeof p.aid === 'string' ? p.aid : null,
    expiresAt: new Date(p.exp * 1000),
  };
}

export const clearChallengeCookie = (auth: AuthInternals): OutCookie =>
  expiredCookie(challengeCookieName(auth), attributes(auth));

/** A new trust cookie for `id.secret`. */
export const trustCookie = (auth: AuthInternals, value: string, maxAge: number): OutCookie => ({
  name: trustCookieName(auth),
  value,
  options: { ...attributes(auth), maxAge },
});

export const clearTrustCookie = (auth: AuthInternals): OutCookie =>
  expiredCookie(trustCookieName(auth), attributes(auth));
