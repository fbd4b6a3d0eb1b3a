/**
 * A small cookie jar for in-process requests: it keeps what `Set-Cookie`
 * says (name, value, path, expiry) and sends back what matches a path.
 * Every test context has one host, so `Domain` is not needed; `Secure`
 * cookies are kept too, since a test origin on `localhost` counts as secure.
 * @module
 */

interface StoredCookie {
  value: string;
  path: string;
  /** Milliseconds since the epoch, or undefined for a session cookie. */
  expires?: number;
}

/** The cookies a test context sends with its requests. */
export interface TestCookieJar {
  /** The `Cookie` header for a request to `pathname`, or `''` when nothing matches. */
  header(pathname: string): string;
  /** Applies the `Set-Cookie` lines of a response. */
  store(setCookieLines: readonly string[]): void;
  /** The current value of a cookie, or undefined. */
  get(name: string): string | undefined;
  /** Sets a cookie by hand (path `/`, no expiry). */
  set(name: string, value: string): void;
  /** Removes every cookie. */
  clear(): void;
}

function expiryOf(attributes: Map<string, string>, now: number): number | undefined {
  const maxAge = attributes.get('max-age');
  if (maxAge !== undefined && /^-?\d+$/.test(maxAge)) return now + Number(maxAge) * 1000;
  const expires = attributes.get('expires');
  if (expires === undefined) return undefined;
  const at = Date.parse(expires);
  return Number.isNaN(at) ? undefined : at;
}

function pathMatches(cookiePath: string, requestPath: string): boolean {
  if (requestPath === cookiePath) return true;
  if (!requestPath.startsWith(cookiePath)) return false;
  return cookiePath.endsWith('/') || requestPath[cookiePath.length] === '/';
}

/**
 * Creates an empty cookie jar.
 *
 * @example
 * ```ts
 * const jar = createCookieJar();
 * jar.store(response.headers.getSetCookie());
 * const cookie = jar.header('/dashboard'); // "framework.session-token=…"
 * ```
 */
export function createCookieJar(): TestCookieJar {
  const cookies = new Map<string, StoredCookie>();
  const live = (cookie: StoredCookie, now: number) => cookie.expires === undefined || cookie.expires > now;
  return {
    header(pathname) {
      const now = Date.now();
      const pairs: string[] = [];
      for (const [name, cookie] of cookies) {
        if (live(cookie, now) && pathMatches(cookie.path, pathname)) pairs.push(`${name}=${cookie.value}`);
      }
      return pairs.join('; ');
    },
    store(lines) {
      const now = Date.now();
      for (const line of lines) {
        const [pair = '', ...rest] = line.split(';');
        const eq = pair.indexOf('=');
        if (eq <= 0) continue;
        const name = pair.slice(0, eq).trim();
        const attributes = new Map<string, string>();
        for (const part of rest) {
          const at = part.indexOf('=');
          const key = (at < 0 ? part : part.slice(0, at)).trim().toLowerCase();
          attributes.set(key, at < 0 ? '' : part.slice(at + 1).trim());
        }
        const cookie: StoredCookie = { value: pair.slice(eq + 1).trim(), path: attributes.get('path') || '/' };
        const expires = expiryOf(attributes, now);
        if (expires !== undefined) cookie.expires = expires;
        if (live(cookie, now)) cookies.set(name, cookie);
        else cookies.delete(name);
      }
    },
    get(name) {
      const cookie = cookies.get(name);
      return cookie && live(cookie, Date.now()) ? cookie.value : undefined;
    },
    set(name, value) {
      cookies.set(name, { value, path: '/' });
    },
    clear() {
      cookies.clear();
    },
  };
}
