/**
 * A cookie jar for the sign-in steps (tough-cookie), and its cookies in Playwright's shape.
 * @module
 */
import { CookieJar, type Cookie } from 'tough-cookie';
import type { BrowserCookie } from './types.js';

const SAME_SITE = { strict: 'Strict', lax: 'Lax', none: 'None' } as const;

function toBrowserCookie(cookie: Cookie, host: string): BrowserCookie {
  const expires = cookie.expiryTime();
  const sameSite = SAME_SITE[String(cookie.sameSite).toLowerCase() as keyof typeof SAME_SITE] ?? 'Lax';
  return {
    name: cookie.key,
    value: cookie.value,
    domain: cookie.domain ?? host,
    path: cookie.path ?? '/',
    expires: expires === undefined || expires === Infinity ? -1 : Math.floor(expires / 1000),
    httpOnly: cookie.httpOnly,
    secure: cookie.secure,
    sameSite,
  };
}

/** A jar that keeps the `Set-Cookie`s of the steps' responses and sends them back, `Secure` ones on localhost too. */
export interface StepJar {
  /** The `Cookie` header for `url`. */
  header(url: string): Promise<string>;
  /** Keeps the response's `Set-Cookie`s, as a browser at `url` would. */
  store(url: string, response: Response): Promise<void>;
  /** Every cookie a browser at `url` would hold now, in Playwright's shape. */
  browserCookies(url: string): Promise<BrowserCookie[]>;
}

/** Creates an empty {@link StepJar}. */
export function createStepJar(): StepJar {
  const jar = new CookieJar(undefined, { allowSecureOnLocal: true });
  return {
    header: (url) => jar.getCookieString(url),
    async store(url, response) {
      for (const line of response.headers.getSetCookie()) await jar.setCookie(line, url, { ignoreError: true });
    },
    async browserCookies(url) {
      const host = new URL(url).hostname;
      return (await jar.getCookies(url)).map((cookie) => toBrowserCookie(cookie, host));
    },
  };
}
