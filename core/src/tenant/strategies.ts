/**
 * Reading a tenant key from a request, one function per strategy. Each
 * returns a well-formed key or null; none ever throws on request input.
 * @module
 * @internal
 */
import { readCookie } from '../http/cookies.js';
import { isValidTenantId, isValidTenantSlug } from './slug.js';

/** Reads the tenant id or slug a request names, or null. */
export type KeyReader = (request: Request) => string | null;

/** A slug in a position that only holds slugs (a host label, a path segment), compared case-insensitively. */
const slugOrNull = (value: string): string | null => {
  const lower = value.toLowerCase();
  return isValidTenantSlug(lower) ? lower : null;
};

/** A value that may be an id or a slug (header, cookie). */
const keyOrNull = (value: string | null | undefined): string | null => {
  if (value === null || value === undefined) return null;
  if (isValidTenantId(value)) return value;
  return slugOrNull(value);
};

/** Labels that never name a tenant under the base domain. */
const RESERVED_LABELS = new Set(['www']);

/**
 * `acme.example.com` → `acme` for base domain `example.com`. The host is the
 * request URL's (WHATWG-parsed: lowercased, IDN in punycode, port dropped);
 * one trailing dot is ignored. Only a single label directly under the base
 * domain counts, matched on a dot boundary: `evilexample.com`,
 * `a.b.example.com`, the bare domain and `www` give null.
 */
export function subdomainReader(baseDomain: string): KeyReader {
  const suffix = `.${baseDomain}`;
  return (request) => {
    let host: string;
    try {
      host = new URL(request.url).hostname;
    } catch {
      return null;
    }
    if (host.endsWith('.')) host = host.slice(0, -1);
    if (!host.endsWith(suffix)) return null;
    const label = host.slice(0, -suffix.length);
    if (label.includes('.') || RESERVED_LABELS.has(label)) return null;
    return slugOrNull(label);
  };
}

/**
 * `/t/acme/settings` → `acme` for prefix `/t/`. The path is the request
 * URL's after WHATWG normalization (`..` and `%2e%2e` segments already
 * resolved), so `/t/../admin` names no tenant; a percent-encoded segment is
 * never a slug.
 */
export function pathReader(prefix: string): KeyReader {
  return (request) => {
    let path: string;
    try {
      path = new URL(request.url).pathname;
    } catch {
      return null;
    }
    if (!path.startsWith(prefix)) return null;
    const end = path.indexOf('/', prefix.length);
    return slugOrNull(path.slice(prefix.length, end === -1 ? undefined : end));
  };
}

/** The header's value, an id or a slug. Several values (`a, b`) are never a key. */
export function headerReader(name: string): KeyReader {
  return (request) => keyOrNull(request.headers.get(name));
}

/** The cookie's (decoded) value, an id or a slug. */
export function cookieReader(name: string): KeyReader {
  return (request) => keyOrNull(readCookie(request.headers.get('cookie'), name));
}
