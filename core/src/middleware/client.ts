/**
 * Telling API clients (answered with JSON status codes) from browsers
 * (answered with redirects and pages).
 * @module
 * @internal
 */

/**
 * Whether `request` comes from an API client rather than a browser
 * navigation. The first rule that applies decides:
 * 1. `Sec-Fetch-Mode` (Fetch Metadata, sent by browsers): `navigate` is a
 *    browser; any other mode (a script's `fetch`) is an API client.
 * 2. `Accept` naming `text/html`: a browser (every browser sends it on a
 *    navigation or a form post).
 * 3. Otherwise an API client: `curl`, server-side `fetch`, mobile apps and
 *    scripts get JSON status codes (401/403 `{error: {code, message}}`), never
 *    a redirect to an HTML page.
 */
export function isApiRequest(request: Request): boolean {
  const mode = request.headers.get('sec-fetch-mode');
  if (mode) return mode.toLowerCase() !== 'navigate';
  return !(request.headers.get('accept') ?? '').toLowerCase().includes('text/html');
}
