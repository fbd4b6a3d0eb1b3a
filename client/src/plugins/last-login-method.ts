/**
 * `@framework/auth-client/plugins/last-login-method`: reads which sign-in method this browser used last, from the
 * cookie the server's `lastLoginMethod()` plugin (`@framework/auth/plugins/last-login-method`) sets.
 * @module
 */

/** The cookie's name (not HttpOnly: it names a method, nothing secret). */
export const LAST_LOGIN_METHOD_COOKIE = 'framework.last-login-method';

/** The method names with a fixed spelling; OAuth/OIDC sign-ins are `oauth:<provider id>`. */
export const LAST_LOGIN_METHODS = [
  'credentials',
  'email-otp',
  'magic-link',
  'passkey',
  'phone-number',
  'username',
] as const;

/** A method a person signed in with: one of {@link LAST_LOGIN_METHODS}, or `oauth:<provider id>`. */
export type LastLoginMethod = (typeof LAST_LOGIN_METHODS)[number] | `oauth:${string}`;

const FIXED: ReadonlySet<string> = new Set(LAST_LOGIN_METHODS);
const OAUTH = /^oauth:[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/**
 * The method this browser signed in with last (`credentials`, `email-otp`, `magic-link`, `passkey`,
 * `phone-number`, `username`, `oauth:<provider id>`), or null: no cookie, a value outside that list (forged or
 * corrupted), or no `document` (server rendering). `cookie` reads another cookie string than `document.cookie`.
 * @example
 * ```ts
 * import { getLastUsedLoginMethod } from '@framework/auth-client/plugins/last-login-method';
 *
 * const last = getLastUsedLoginMethod(); // 'oauth:github'
 * if (last === 'oauth:github') githubButton.classList.add('last-used');
 * ```
 */
export function getLastUsedLoginMethod(cookie?: string): LastLoginMethod | null {
  const header = cookie ?? (typeof document === 'undefined' ? '' : document.cookie);
  for (const pair of header.split(';')) {
    const eq = pair.indexOf('=');
    if (eq < 0 || pair.slice(0, eq).trim() !== LAST_LOGIN_METHOD_COOKIE) continue;
    let value: string;
    try {
      value = decodeURIComponent(pair.slice(eq + 1).trim());
    } catch {
      return null;
    }
    return FIXED.has(value) || OAUTH.test(value) ? (value as LastLoginMethod) : null;
  }
  return null;
}
