/**
 * CSRF defence for state-changing routes (OWASP CSRF Prevention Cheat Sheet):
 * 1. Fetch metadata and Origin: a request whose `Sec-Fetch-Site` is
 *    `cross-site`/`same-site` or whose `Origin` is not the app's (or a trusted
 *    origin) is refused.
 * 2. Signed double-submit token: the `csrfToken` field (or `X-CSRF-Token`
 *    header) must equal the token in the CSRF cookie, whose value is
 *    `token.HMAC(secret, token)` so it cannot be forged by a sibling host.
 * A failure is 403 with code `CSRF_ORIGIN_MISMATCH` or `CSRF_TOKEN_INVALID`.
 * @internal
 * @module
 */
import { authError } from '../errors/auth-error.js';
import { hmacSha256, randomString, timingSafeEqual } from '../crypto.js';
import type { OutCookie } from './cookies.js';

/** Name of the CSRF cookie; `__Host-` prefixed when cookies are secure (RFC 6265bis §4.1.3.2). */
export function csrfCookieName(secure: boolean): string {
  return secure ? '__Host-framework.csrf-token' : 'framework.csrf-token';
}

/** Returns the token inside a valid cookie value, or null. */
export async function tokenFromCookie(value: string | undefined, secret: string): Promise<string | null> {
  if (!value) return null;
  const dot = value.indexOf('.');
  if (dot <= 0) return null;
  const token = value.slice(0, dot);
  const mac = value.slice(dot + 1);
  return timingSafeEqual(mac, await hmacSha256(secret, `csrf:${token}`)) ? token : null;
}

/** Reuses the token from a valid cookie or makes a new one with its cookie. */
export async function issueCsrfToken(
  cookieValue: string | undefined,
  secret: string,
  secure: boolean,
): Promise<{ token: string; cookie?: OutCookie }> {
  const existing = await tokenFromCookie(cookieValue, secret);
  if (existing) return { token: existing };
  const token = randomString(32);
  const value = `${token}.${await hmacSha256(secret, `csrf:${token}`)}`;
  return {
    token,
    cookie: { name: csrfCookieName(secure), value, options: { httpOnly: true, secure, sameSite: 'lax', path: '/' } },
  };
}

/** Checks `Sec-Fetch-Site` and `Origin`. @throws AuthError `CSRF_ORIGIN_MISMATCH` (403). */
export function checkOrigin(request: Request, appOrigin: string, trustedOrigins: readonly string[]): void {
  const origin = request.headers.get('origin');
  const allowed = origin !== null && (origin === appOrigin || trustedOrigins.includes(origin));
  const site = request.headers.get('sec-fetch-site');
  if (site === 'cross-site' || site === 'same-site') {
    if (!allowed) throw originError();
  }
  if (origin !== null && !allowed) throw originError();
}

/** Checks the submitted token against the cookie. @throws AuthError `CSRF_TOKEN_INVALID` (403). */
export async function checkCsrfToken(
  submitted: string | undefined,
  cookieValue: string | undefined,
  secret: string,
): Promise<void> {
  const expected = await tokenFromCookie(cookieValue, secret);
  if (!expected || typeof submitted !== 'string' || !timingSafeEqual(submitted, expected)) {
    throw authError(
      'CSRF_TOKEN_INVALID',
      'Missing or invalid CSRF token; fetch one from GET /csrf and send it as csrfToken',
    );
  }
}

function originError() {
  return authError('CSRF_ORIGIN_MISMATCH');
}
