/**
 * Cookie reading and writing (RFC 6265bis) through the `cookie` package.
 * @internal
 * @module
 */
import { parse, serialize } from 'cookie';

/** Attributes of a cookie the kit sets. `maxAge` is in seconds. */
export interface OutCookie {
  name: string;
  value: string;
  options: {
    maxAge?: number;
    expires?: Date;
    httpOnly?: boolean;
    secure?: boolean;
    sameSite?: 'lax' | 'strict' | 'none';
    path?: string;
    domain?: string;
  };
}

/** Parses a Cookie header; malformed pairs are ignored, never thrown. */
export function parseCookies(header: string | null): Record<string, string> {
  if (!header) return {};
  try {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(parse(header))) if (typeof v === 'string') out[k] = v;
    return out;
  } catch {
    return {};
  }
}

/** Space or horizontal tab: the whitespace the `cookie` package trims around names and values. */
function isBlank(code: number): boolean {
  return code === 0x20 || code === 0x09;
}

/**
 * Reads one cookie from a Cookie header, as `parseCookies(header)[name]` would (same pairs, same trimming, first
 * occurrence wins, `%`-decoding where it is valid), without building an object of every cookie: the session read
 * of every request calls it. A property test holds it to the `cookie` package's `parse`.
 */
export function readCookie(header: string | null, name: string): string | undefined {
  // As `parse`: a header shorter than one name and its '=' holds no cookie.
  if (!header || header.length < 2) return undefined;
  const first = header.indexOf(name);
  if (first === -1) return undefined;
  const length = header.length;
  // Pairs are the ';'-separated segments: none before the one where the name first appears can be it.
  let index = header.lastIndexOf(';', first) + 1;
  while (index < length) {
    const eq = header.indexOf('=', index);
    if (eq === -1) return undefined;
    let end = header.indexOf(';', index);
    if (end === -1) end = length;
    if (eq > end) {
      // This pair has no '=': go on from the pair that holds the next one.
      index = header.lastIndexOf(';', eq - 1) + 1;
      continue;
    }
    let start = index;
    let keyEnd = eq;
    while (start < keyEnd && isBlank(header.charCodeAt(start))) start++;
    while (keyEnd > start && isBlank(header.charCodeAt(keyEnd - 1))) keyEnd--;
    if (keyEnd - start === name.length && header.startsWith(name, start)) {
      let from = eq + 1;
      let to = end;
      while (from < to && isBlank(header.charCodeAt(from))) from++;
      while (to > from && isBlank(header.charCodeAt(to - 1))) to--;
      return decodeValue(header.slice(from, to));
    }
    index = end + 1;
  }
  return undefined;
}

/** `%`-decodes a cookie value; a value that is not valid percent-encoding is kept as it is. */
function decodeValue(value: string): string {
  if (!value.includes('%')) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** Serializes a cookie for a Set-Cookie header. */
export function serializeCookie(cookie: OutCookie): string {
  return serialize(cookie.name, cookie.value, cookie.options);
}

/** A cookie that deletes `name` (empty value, Max-Age=0, expired). */
export function expiredCookie(name: string, options: OutCookie['options']): OutCookie {
  return { name, value: '', options: { ...options, maxAge: 0, expires: new Date(0) } };
}
