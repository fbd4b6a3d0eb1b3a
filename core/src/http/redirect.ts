/**
 * Redirect-target checks (OWASP ASVS V5.1.5, unvalidated redirects): a
 * target must be a relative path or on an allowed origin.
 * @internal
 * @module
 */

/**
 * Returns `url` resolved against `baseUrl` when it is a relative path, or an
 * absolute URL whose origin is `baseUrl`'s or one of `trustedOrigins`;
 * otherwise null. Protocol-relative (`//host`), backslash (`/\host`) and
 * control-character tricks are refused.
 */
export function safeRedirect(url: unknown, baseUrl: string, trustedOrigins: readonly string[]): string | null {
  if (typeof url !== 'string' || url.length === 0 || url.length > 2048) return null;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(url)) return null;
  let target: URL;
  try {
    target = new URL(url, baseUrl);
  } catch {
    return null;
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return null;
  const base = new URL(baseUrl);
  if (url.startsWith('/') && !url.startsWith('//')) {
    return target.origin === base.origin ? `${target.pathname}${target.search}${target.hash}` : null;
  }
  if (target.origin === base.origin || trustedOrigins.includes(target.origin)) return target.href;
  return null;
}

/** Normalises a configured trusted origin (`https://a.example/path` → `https://a.example`). */
export function normaliseOrigin(origin: string): string {
  return new URL(origin).origin;
}
