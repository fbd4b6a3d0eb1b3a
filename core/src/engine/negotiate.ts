/**
 * What kind of answer a request wants: JSON for API clients, HTML pages and redirects for browsers.
 * @internal
 * @module
 */

/** True when the client asked for JSON (`Accept` or a JSON body) and not for HTML. */
export function wantsJson(request: Request): boolean {
  const accept = request.headers.get('accept') ?? '';
  const type = request.headers.get('content-type') ?? '';
  if (accept.includes('text/html')) return false;
  return accept.includes('application/json') || type.includes('application/json');
}

/**
 * Whether an error is answered as JSON `{error: {code, message}}`: always, unless the request accepts
 * `text/html` (a browser navigation or form post). So `curl`, `fetch` and other API clients never get an HTML
 * error page, whatever their `Accept` says.
 */
export function wantsJsonError(request: Request): boolean {
  return wantsJson(request) || !(request.headers.get('accept') ?? '').includes('text/html');
}
