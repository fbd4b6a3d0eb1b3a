/**
 * Reading `Authorization: Bearer <token>` (RFC 6750 §2.1) and telling bearer requests from browser ones.
 * @module
 */

/** The header the token is answered in. */
export const TOKEN_HEADER = 'set-auth-token';
/** The header a client without a token yet sends to ask for one (`x-auth-mode: bearer`). */
export const MODE_HEADER = 'x-auth-mode';
/** Longest `Authorization` header read, in characters; a longer one is malformed. */
export const MAX_AUTHORIZATION = 4096;

// RFC 6750 §2.1: "Bearer" 1*SP b64token, b64token = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"=".
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*)$/i;
const SCHEME = /^bearer(?: |$)/i;

/**
 * The token of the request's `Authorization: Bearer` header: `undefined` without one (no header, another scheme),
 * `null` when it is malformed (too long, no token, characters outside RFC 6750's b64token, several headers).
 */
export function readBearerToken(request: Request): string | null | undefined {
  const header = request.headers.get('authorization');
  if (header === null || !SCHEME.test(header.trimStart())) return undefined;
  if (header.length > MAX_AUTHORIZATION) return null;
  return BEARER.exec(header.trim())?.[1] ?? null;
}

/**
 * Whether the request is a bearer client's: no `Cookie` header at all, and an `Authorization: Bearer` header (any
 * token) or `x-auth-mode: bearer`. A browser sends neither header across sites without the app's CORS consent
 * (both make the request non-simple), and without a cookie the request carries no ambient credential to abuse.
 */
export function isBearerRequest(request: Request): boolean {
  if (request.headers.has('cookie')) return false;
  if (request.headers.get(MODE_HEADER)?.trim().toLowerCase() === 'bearer') return true;
  return readBearerToken(request) !== undefined;
}
