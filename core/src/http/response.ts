/**
 * Turns an {@link ActionResult} into a Web `Response`, with the kit's
 * security headers on every answer: `Cache-Control: no-store` (unless the
 * route set its own), `X-Content-Type-Options: nosniff`, `Referrer-Policy:
 * same-origin` (auth URLs carry tokens and codes that must not leak in a
 * Referer to another site; `no-referrer` would make browsers send
 * `Origin: null` on the pages' own form posts, which the CSRF check must
 * refuse), and on HTML pages `X-Frame-Options: DENY` plus `Content-Security-
 * Policy: frame-ancestors 'none'` against clickjacking; a default page gets `Content-Language` (its `<html lang>`)
 * and `Vary: Accept-Language`.
 * @internal
 * @module
 */
import type { ActionResult } from '../contract/types.js';
import { serializeCookie } from './cookies.js';
import { layoutLang } from '../pages/html.js';

export function toWebResponse(result: ActionResult): Response {
  const headers = new Headers(result.headers);
  if (!headers.has('cache-control')) headers.set('cache-control', 'no-store');
  headers.set('x-content-type-options', 'nosniff');
  if (!headers.has('referrer-policy')) headers.set('referrer-policy', 'same-origin');
  for (const c of result.cookies ?? []) headers.append('set-cookie', serializeCookie(c));
  if (result.setCookies) for (const c of result.setCookies.getSetCookie()) headers.append('set-cookie', c);
  if (result.redirect !== undefined) {
    headers.set('location', result.redirect);
    return new Response(null, { status: result.status, headers });
  }
  if (result.text !== undefined) {
    headers.set('content-type', result.contentType ?? 'text/plain; charset=utf-8');
    return new Response(result.text, { status: result.status, headers });
  }
  if (result.html !== undefined) {
    headers.set('content-type', 'text/html; charset=utf-8');
    headers.set('x-frame-options', 'DENY');
    headers.set('content-security-policy', "frame-ancestors 'none'");
    // A default page says which language it speaks; that language was picked from Accept-Language.
    const lang = layoutLang(result.html);
    if (lang !== undefined) {
      if (!headers.has('content-language')) headers.set('content-language', lang);
      headers.append('vary', 'Accept-Language');
    }
    return new Response(result.html, { status: result.status, headers });
  }
  headers.set('content-type', 'application/json');
  return new Response(JSON.stringify(result.json ?? null), { status: result.status, headers });
}

/**
 * The security headers for an app's own pages, as the adapters' header
 * helpers send them: `Cache-Control: no-store` (pages carry CSRF tokens and
 * personal data that no shared cache may keep), `Content-Security-Policy:
 * frame-ancestors 'none'` and `X-Frame-Options: DENY` (no framing, against
 * clickjacking), `Referrer-Policy: same-origin` (no URL leaks to other
 * sites) and `X-Content-Type-Options: nosniff`. OWASP ASVS 5.0 §3.4.
 */
export const PAGE_SECURITY_HEADERS: Readonly<Record<string, string>> = /* @__PURE__ */ Object.freeze({
  'cache-control': 'no-store',
  'content-security-policy': "frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'referrer-policy': 'same-origin',
  'x-content-type-options': 'nosniff',
});

/**
 * Sets each of {@link PAGE_SECURITY_HEADERS} that `headers` does not have
 * yet, so a route's own `Cache-Control` or CSP wins. Mutates and returns
 * `headers`.
 * @example
 * ```ts
 * const res = new Response(html, { headers: { 'content-type': 'text/html' } });
 * applySecurityHeaders(res.headers);
 * ```
 */
export function applySecurityHeaders(headers: Headers): Headers {
  for (const [name, value] of Object.entries(PAGE_SECURITY_HEADERS)) if (!headers.has(name)) headers.set(name, value);
  return headers;
}

/**
 * `response` with {@link applySecurityHeaders} applied: the same object when
 * its headers can be changed, else a copy (a `Response` from `fetch` or
 * `Response.redirect` has immutable headers).
 * @example
 * ```ts
 * return withSecurityHeaders(await handler(request));
 * ```
 */
export function withSecurityHeaders(response: Response): Response {
  try {
    applySecurityHeaders(response.headers);
    return response;
  } catch {
    const copy = new Response(response.body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
    applySecurityHeaders(copy.headers);
    return copy;
  }
}
