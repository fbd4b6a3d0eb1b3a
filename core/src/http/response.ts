/**
 * Turns an {@link ActionResult} into a Web `Response`.
 * @internal
 * @module
 */
import type { ActionResult } from '../routes/context.js';
import { serializeCookie } from './cookies.js';

export function toWebResponse(result: ActionResult): Response {
  const headers = new Headers(result.headers);
  if (!headers.has('cache-control')) headers.set('cache-control', 'no-store');
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
    return new Response(result.html, { status: result.status, headers });
  }
  headers.set('content-type', 'application/json');
  return new Response(JSON.stringify(result.json ?? null), { status: result.status, headers });
}
