/**
 * `toRedirectTo(path)`: a 3xx response whose `Location` names that path on the app's origin.
 * @module
 */
import type { MatcherState } from 'vitest';
import { responseSource } from '../context/responses.js';
import { DEFAULT_ORIGIN, matcherDefaults, type MatcherResult } from './defaults.js';

/** Options of `toRedirectTo`. */
export interface RedirectOptions {
  /** The app's origin a relative `Location` resolves against. Default: the test context's, then `configureMatchers`. */
  origin?: string;
}

function parse(location: string, base: string): URL | undefined {
  try {
    return new URL(location, base);
  } catch {
    return undefined;
  }
}

/**
 * Why `response` does not redirect to `expected`, or undefined when it does. The target must be on the origin of
 * `expected` (the app's, for a path), so an open redirect to another site never passes for a path.
 */
function mismatch(response: Response, expected: string, origin: string): { why: string } | undefined {
  if (response.status < 300 || response.status > 399) return { why: `its status is ${response.status}` };
  const location = response.headers.get('location');
  if (location === null) return { why: `its status is ${response.status} without a Location header` };
  const want = parse(expected, origin);
  if (!want) throw new TypeError(`toRedirectTo: ${JSON.stringify(expected)} is not a path or URL`);
  const got = parse(location, origin);
  if (!got) return { why: `its Location ${JSON.stringify(location)} is not a URL` };
  if (got.origin !== want.origin) return { why: `it redirects to ${got.href}, off the origin ${want.origin}` };
  if (got.pathname !== want.pathname) return { why: `it redirects to ${got.pathname}${got.search}` };
  if (want.search !== '' && got.search !== want.search) return { why: `it redirects to ${got.pathname}${got.search}` };
  return undefined;
}

/**
 * The matcher. A path without a query matches any query of the `Location`; give the query to match it exactly.
 */
export function toRedirectTo(
  this: MatcherState,
  received: unknown,
  path: string,
  options: RedirectOptions = {},
): MatcherResult {
  if (!(received instanceof Response)) throw new TypeError('toRedirectTo: expected a Response');
  if (typeof path !== 'string' || path === '') throw new TypeError('toRedirectTo: path must be a non-empty string');
  const origin = options.origin ?? responseSource(received)?.origin ?? matcherDefaults().origin ?? DEFAULT_ORIGIN;
  const failed = mismatch(received, path, origin);
  return {
    pass: failed === undefined,
    message: () =>
      failed === undefined
        ? `expected the response not to redirect to ${path}, but it does (${received.status} to ${received.headers.get('location')})`
        : `expected the response to redirect to ${path}, but ${failed.why}`,
  };
}
