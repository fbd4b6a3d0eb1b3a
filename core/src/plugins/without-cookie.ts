/**
 * A route's answer without the cookie `name`: plugins that move the session cookie elsewhere (`bearer()` into a
 * header) or hand another one out (`multiSession()` when the active session ends) drop the engine's own line.
 * @module
 */
import type { ActionResult } from '../contract/types.js';

/**
 * `result` without any `cookies` entry or `Set-Cookie` line for the cookie `name` (other cookies kept, in order):
 * for a plugin's `afterResponse`-style rewrite that replaces or moves a cookie the engine set.
 * @example
 * ```ts
 * const out = withoutCookie(result, ctx.auth.config.cookies.sessionToken.name);
 * ```
 */
export function withoutCookie(result: ActionResult, name: string): ActionResult {
  const out: ActionResult = { ...result, cookies: (result.cookies ?? []).filter((c) => c.name !== name) };
  if (result.setCookies) {
    const rest = new Headers();
    for (const line of result.setCookies.getSetCookie())
      if (!line.startsWith(`${name}=`)) rest.append('set-cookie', line);
    out.setCookies = rest;
  }
  return out;
}
