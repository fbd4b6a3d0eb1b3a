/**
 * The session cookie's name and its RFC 6265bis cookie prefixes
 * (§4.1.3.1 `__Secure-`, §4.1.3.2 `__Host-`). A browser accepts a
 * `__Host-` cookie only when it is Secure, has `Path=/` and no `Domain`, so
 * a sibling subdomain or a plain-HTTP page cannot plant or overwrite it
 * (cookie tossing, session fixation).
 * @internal
 * @module
 */
import { AuthConfigError } from '../errors.js';

/** The session cookie's name when none is configured. */
export const DEFAULT_SESSION_COOKIE = 'framework.session-token';

/** The attributes that decide which prefix a cookie may carry. */
export interface PrefixAttributes {
  secure: boolean;
  path: string;
  domain?: string | undefined;
}

/** The strongest prefix the attributes allow: `__Host-`, `__Secure-`, or none. */
export function strongestPrefix({ secure, path, domain }: PrefixAttributes): '__Host-' | '__Secure-' | '' {
  if (!secure) return '';
  return path === '/' && domain === undefined ? '__Host-' : '__Secure-';
}

/**
 * The session cookie's name. A configured name is kept as it is (so apps
 * that named their cookie keep reading it), but a `__Host-` or `__Secure-`
 * name must have the attributes its prefix demands. Without a configured
 * name: `framework.session-token` with the strongest prefix the attributes
 * allow (`__Host-` when secure with `Path=/` and no `Domain`; `__Secure-`
 * when secure with a `domain` or another path; none over plain HTTP).
 * @throws AuthConfigError (`INVALID_CONFIG`) for a prefixed name whose attributes a browser would refuse.
 */
export function sessionCookieName(configured: string | undefined, attributes: PrefixAttributes): string {
  if (configured === undefined) return `${strongestPrefix(attributes)}${DEFAULT_SESSION_COOKIE}`;
  // RFC 6265bis matches the prefixes case-insensitively.
  const lower = configured.toLowerCase();
  if (lower.startsWith('__host-') && strongestPrefix(attributes) !== '__Host-') {
    throw new AuthConfigError(
      `Invalid auth config: cookies.sessionToken.name "${configured}" has the __Host- prefix, which needs secure: true, path "/" and no domain (RFC 6265bis §4.1.3.2)`,
    );
  }
  if (lower.startsWith('__secure-') && !attributes.secure) {
    throw new AuthConfigError(
      `Invalid auth config: cookies.sessionToken.name "${configured}" has the __Secure- prefix, which needs secure: true (RFC 6265bis §4.1.3.1)`,
    );
  }
  return configured;
}
