/**
 * The answer to a request refused by a rate limiter: the limiter's JSON
 * (429 `RATE_LIMITED` or 503 `RATE_LIMIT_UNAVAILABLE`) for JSON clients, the
 * error page with the same status and headers for browsers.
 * @internal
 * @module
 */
import type { RateLimitResult } from '../rate-limit/types.js';
import { errorPage } from '../pages/pages.js';
import type { ActionResult, RouteContext } from './context.js';

export function rateLimited(ctx: Pick<RouteContext, 'wantsJson' | 'auth'>, verdict: RateLimitResult): ActionResult {
  const status = verdict.response?.status ?? 429;
  const headers: Record<string, string> = {};
  verdict.headers.forEach((value, key) => {
    headers[key] = value;
  });
  const code = status === 503 ? 'RATE_LIMIT_UNAVAILABLE' : 'RATE_LIMITED';
  if (ctx.wantsJson) {
    const message = status === 503 ? 'Sign-in is briefly unavailable; try again shortly' : 'Too many attempts; try again later';
    return { status, json: { error: { code, message } }, headers };
  }
  const wait = verdict.retryAfter ? Math.ceil(verdict.retryAfter / 60) : 0;
  const html = errorPage({
    code: status === 503 ? 'Default' : 'RateLimited',
    signInUrl: ctx.auth.config.pages.signIn,
    ...(wait > 0 ? { detail: `Try again in ${wait} minute${wait === 1 ? '' : 's'}.` } : {}),
  });
  return { status, html, headers };
}
