/**
 * Redirect-target checks (OWASP ASVS V5.1.5, unvalidated redirects): a
 * target must resolve, after full WHATWG URL normalisation (the parsing a
 * browser applies to `Location`), to the app's origin or a trusted one.
 * @internal
 * @module
 */

/**
 * Returns a safe form of `url`, or null when it would leave the allowed
 * origins. Relative targets come back as a path (`/a?b#c`) that can never
 * read as protocol-relative; absolute ones as their normalised `href`.
 *
 * Refused: non-http(s) schemes (`javascript:`, `data:`), control
 * characters, tabs and newlines (which browsers strip), backslashes,
 * protocol-relative forms (`//host`, `/\host`, `/.//host`,
 * `/%2e%2e//host` after dot-segment removal), userinfo tricks
 * (`https://app@evil`) and anything longer than 2048 characters. The result
 * is checked once more by resolving it as a browser would resolve
 * `Location` against `baseUrl`: its origin must be `baseUrl`'s or in
 * `trustedOrigins`.
 */
export function safeRedirect(url: unknown, baseUrl: string, trustedOrigins: readonly string[]): string | null {
  if (typeof url !== 'string' || url.length === 0 || url.length > 2048) return null;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0020\u007f\\]/.test(url)) return null;
  let base: URL;
  let target: URL;
  try {
    base = new URL(baseUrl);
    target = new URL(url, base);
  } catch {
    return null;
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return null;
  if (target.username !== '' || target.password !== '') return null;
  const allowed = (origin: string) => origin === base.origin || trustedOrigins.includes(origin);
  let out: string;
  if (url.startsWith('/') && !url.startsWith('//')) {
    if (target.origin !== base.origin) return null;
    out = `${target.pathname}${target.search}${target.hash}`;
    // A path that normalised into `//host` would read as protocol-relative.
    if (!out.startsWith('/') || out.startsWith('//')) return null;
  } else {
    if (!allowed(target.origin)) return null;
    out = target.href;
  }
  try {
    return allowed(new URL(out, base).origin) ? out : null;
  } catch {
    return null;
  }
}
