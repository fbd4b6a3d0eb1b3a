/**
 * Session cookies the kit hands back (`scope.headers`), carried to the browser the ways Next.js allows.
 * @module
 */
import { cookies } from 'next/headers';
import { NextResponse } from 'next/server';
import { withSetCookies } from '@framework/auth';

/**
 * Writes the Set-Cookie lines of `headers` (a refreshed or cleared session cookie, a CSRF cookie from
 * `auth.csrf.issue`) through Next.js's cookie store, attributes included (HttpOnly, SameSite, Max-Age, Path).
 * Next.js lets Route Handlers, Server Actions and middleware set cookies, not Server Components: there the lines are
 * dropped and this resolves `false` (a refreshed expiry is then written by the next Route Handler, Server Action or
 * auth route the browser calls; a cleared cookie is read as signed out until then).
 * @returns whether the cookies were set (true when there were none).
 * @example
 * ```ts
 * 'use server';
 * export async function refresh() {
 *   const { headers } = await auth.getSession(request);
 *   await forwardCookies(headers);
 * }
 * ```
 */
export async function forwardCookies(headers: Headers): Promise<boolean> {
  if (headers.getSetCookie().length === 0) return true;
  const parsed = new NextResponse(null, { headers }).cookies.getAll();
  const store = await cookies();
  try {
    for (const cookie of parsed) store.set(cookie);
    return true;
  } catch {
    // ReadonlyRequestCookiesError: a Server Component, where Next.js refuses to set cookies.
    return false;
  }
}

/**
 * `response` with the Set-Cookie lines of `headers` appended (those it already carries are not repeated); a copy
 * when its headers are immutable (a `Response.redirect`).
 */
export function withCookies(response: Response, headers: Headers): Response {
  return withSetCookies(response, headers.getSetCookie());
}
