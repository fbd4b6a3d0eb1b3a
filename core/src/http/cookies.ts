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

/** Reads one cookie without parsing the whole header into an object when it is absent. */
export function readCookie(header: string | null, name: string): string | undefined {
  if (!header || !header.includes(name)) return undefined;
  try {
    // `parse` returns a prototype-less object, first occurrence of a name winning; no copy is needed here.
    return parse(header)[name];
  } catch {
    return undefined;
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
