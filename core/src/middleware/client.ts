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
 * 2. `Accept` naming `text/html`: a browser.
 * 3. `Accept` naming JSON (`application/json`, `…+json`), a JSON body,
 *    `X-Requested-With: XMLHttpRequest` or an `Authorization` header: an API client.
 * 4. Otherwise a browser, as the kit's own routes assume.
 */
export function isApiRequest(request: Request): boolean {
  const headers = request.headers;
  const mode = headers.get('sec-fetch-mode');
  if (mode) return mode.toLowerCase() !== 'navigate';
  const accept = (headers.get('accept') ?? '').toLowerCase();
  if (accept.includes('text/html')) return false;
  const json = /\bapplication\/(?:[\w.+-]+\+)?json\b/;
  return (
    json.test(accept) ||
    json.test((headers.get('content-type') ?? '').toLowerCase()) ||
    headers.get('x-requested-with')?.toLowerCase() === 'xmlhttprequest' ||
    headers.has('authorization')
  );
}
