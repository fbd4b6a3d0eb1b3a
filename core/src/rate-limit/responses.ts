/**
 * Headers and refusal responses of limiters.
 *
 * - `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset` (delta
 *   seconds) and `RateLimit-Policy` (`<limit>;w=<window seconds>`) follow
 *   draft-ietf-httpapi-ratelimit-headers-06.
 * - `Retry-After` is delay-seconds, RFC 9110 §10.2.3.
 * @internal
 * @module
 */
import type { RateLimitCode } from './types.js';

/** Numbers that go into the headers, all in seconds. */
export interface HeaderFacts {
  limit: number;
  remaining: number;
  reset: number;
  window: number;
  retryAfter?: number;
}

/** The `RateLimit-*` fields, plus `Retry-After` when `retryAfter` is set. */
export function rateLimitHeaders(facts: HeaderFacts): Headers {
  const headers = new Headers({
    'RateLimit-Limit': String(facts.limit),
    'RateLimit-Remaining': String(facts.remaining),
    'RateLimit-Reset': String(facts.reset),
    'RateLimit-Policy': `${facts.limit};w=${Math.max(1, Math.ceil(facts.window))}`,
  });
  if (facts.retryAfter !== undefined) headers.set('Retry-After', String(facts.retryAfter));
  return headers;
}

/** Client-safe messages of the refusal codes. */
export const RATE_LIMIT_MESSAGES: Readonly<Record<RateLimitCode, string>> = {
  RATE_LIMITED: 'Too many attempts. Try again later.',
  RATE_LIMIT_UNAVAILABLE: 'This action is temporarily unavailable. Try again shortly.',
};

/** The JSON refusal: `{error: {code, message}}`, 429 or 503, never cached. */
export function refusalResponse(code: RateLimitCode, headers: Headers): Response {
  const out = new Headers(headers);
  out.set('cache-control', 'no-store');
  const status = code === 'RATE_LIMITED' ? 429 : 503;
  return Response.json({ error: { code, message: RATE_LIMIT_MESSAGES[code] } }, { status, headers: out });
}
