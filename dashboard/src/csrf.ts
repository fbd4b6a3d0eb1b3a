/**
 * Signed double-submit CSRF tokens for the dashboard's POST forms: the token
 * is `<nonce>.<HMAC-SHA256(secret, nonce)>`, set in a `SameSite=Strict`,
 * HttpOnly cookie and embedded in each form; a POST must carry the same
 * token in both, with a valid signature, and an Origin (or
 * `Sec-Fetch-Site`) of the dashboard's own origin.
 * @module
 */

const encoder = new TextEncoder();

function base64url(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Constant-time comparison of two strings. */
export function timingSafeEqual(a: string, b: string): boolean {
  const left = encoder.encode(a);
  const right = encoder.encode(b);
  let diff = left.length ^ right.length;
  for (let i = 0; i < left.length; i++) diff |= left[i]! ^ (right[i % Math.max(right.length, 1)] ?? 0);
  return diff === 0;
}

/** Issues and checks the tokens under one HMAC key. */
export interface CsrfGuard {
  readonly cookieName: string;
  /** The request's valid token, or a new one with the Set-Cookie header value to send. */
  issue(request: Request): Promise<{ token: string; setCookie?: string }>;
  /** `null` when the POST is same-origin and its form token matches the cookie's signed token; else the reason. */
  check(
    request: Request,
    submitted: string | null | undefined,
  ): Promise<'CSRF_ORIGIN_MISMATCH' | 'CSRF_TOKEN_INVALID' | null>;
}

/**
 * A guard keyed by `secret` (any length; a random per-process key when
 * absent, so tokens do not survive a restart). `cookiePath` scopes the cookie
 * to the dashboard; `secure` adds `Secure` and the `__Host-` prefix is not
 * used because the cookie is path-scoped.
 */
export async function createCsrfGuard(options: {
  secret?: string | undefined;
  cookiePath: string;
  secure: boolean;
  /** Origins accepted besides the request URL's own (e.g. the public origin behind a proxy). */
  trustedOrigins?: readonly string[];
}): Promise<CsrfGuard> {
  const keyBytes = options.secret
    ? encoder.encode(`framework-dashboard-csrf:${options.secret}`)
    : crypto.getRandomValues(new Uint8Array(32));
  const key = await crypto.subtle.importKey('raw', keyBytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const cookieName = options.secure ? '__Secure-framework-dashboard-csrf' : 'framework-dashboard-csrf';
  const sign = async (nonce: string) =>
    base64url(new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(nonce))));
  const valid = async (token: string | undefined): Promise<boolean> => {
    if (!token || token.length > 200) return false;
    const [nonce, signature, extra] = token.split('.');
    if (!nonce || !signature || extra !== undefined) return false;
    return timingSafeEqual(signature, await sign(nonce));
  };

  return {
    cookieName,
    async issue(request) {
      const existing = readCookie(request.headers.get('cookie'), cookieName);
      if (existing && (await valid(existing))) return { token: existing };
      const nonce = base64url(crypto.getRandomValues(new Uint8Array(18)));
      const token = `${nonce}.${await sign(nonce)}`;
      const attributes = [
        `Path=${options.cookiePath}`,
        'HttpOnly',
        'SameSite=Strict',
        ...(options.secure ? ['Secure'] : []),
      ];
      return { token, setCookie: `${cookieName}=${token}; ${attributes.join('; ')}` };
    },
    async check(request, submitted) {
      if (!sameOrigin(request, options.trustedOrigins ?? [])) return 'CSRF_ORIGIN_MISMATCH';
      const cookie = readCookie(request.headers.get('cookie'), cookieName);
      if (!cookie || !submitted || !timingSafeEqual(cookie, submitted) || !(await valid(cookie)))
        return 'CSRF_TOKEN_INVALID';
      return null;
    },
  };
}

/**
 * `Origin` equals the request URL's origin or a trusted one; without Origin, `Sec-Fetch-Site` must be
 * `same-origin`.
 */
function sameOrigin(request: Request, trusted: readonly string[]): boolean {
  const origin = request.headers.get('origin');
  if (origin) return origin === new URL(request.url).origin || trusted.includes(origin);
  const site = request.headers.get('sec-fetch-site');
  return site === 'same-origin';
}

/** The value of cookie `name` in a Cookie header. */
export function readCookie(header: string | null, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const index = part.indexOf('=');
    if (index > 0 && part.slice(0, index).trim() === name) return part.slice(index + 1).trim();
  }
  return undefined;
}
