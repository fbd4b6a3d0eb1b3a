/**
 * CORS (Fetch standard) for browser clients on the provider's public endpoints (token, UserInfo, revocation,
 * discovery, JWKS): an `Origin` is allowed when it is exactly the origin of a redirect URI of a public client
 * registered in code (`clients` option). Never `*`, never `Access-Control-Allow-Credentials` (these endpoints read
 * no cookie); every answer carries `Vary: Origin`. The authorization and consent endpoints never answer CORS.
 * @module
 * @internal
 */
import type { ActionResult, RouteContext } from '../../plugin-kit.js';
import type { OidcClientOptions } from './options.js';

/** How long a browser may cache a preflight, in seconds. */
const PREFLIGHT_MAX_AGE = 600;

/** The web origins of the redirect URIs of the public clients among `clients` (custom schemes have none). */
export function publicClientOrigins(clients: readonly OidcClientOptions[]): ReadonlySet<string> {
  const origins = new Set<string>();
  for (const c of clients) {
    if (c.clientSecret !== undefined) continue;
    for (const uri of c.redirectUris) {
      const url = new URL(uri);
      if (url.protocol === 'https:' || url.protocol === 'http:') origins.add(url.origin);
    }
  }
  return origins;
}

/** The CORS answer of one provider. */
export interface Cors {
  /** `result` with the CORS headers for this request's `Origin` (and `Vary: Origin` always). */
  add(ctx: RouteContext, result: ActionResult): ActionResult;
  /** The answer to a preflight for a route serving `methods`: 200 and empty, with CORS headers only for an allowed origin. */
  preflight(methods: readonly string[]): (ctx: RouteContext) => Promise<ActionResult>;
}

/** CORS for the origins `origins()` answers (read per request, so clients registered in code at start count). */
export function createCors(origins: () => ReadonlySet<string>): Cors {
  const allowed = (ctx: RouteContext): string | null => {
    const origin = ctx.request.headers.get('origin');
    return origin !== null && origins().has(origin) ? origin : null;
  };
  const vary = (headers: Record<string, string> | undefined) => (headers?.vary ? `${headers.vary}, Origin` : 'Origin');
  return {
    add(ctx, result) {
      const origin = allowed(ctx);
      const headers: Record<string, string> = { ...result.headers, vary: vary(result.headers) };
      if (origin !== null) headers['access-control-allow-origin'] = origin;
      return { ...result, headers };
    },
    preflight: (methods) => async (ctx) => {
      const origin = allowed(ctx);
      const headers: Record<string, string> = { vary: 'Origin' };
      if (origin !== null) {
        headers['access-control-allow-origin'] = origin;
        headers['access-control-allow-methods'] = methods.join(', ');
        headers['access-control-allow-headers'] = 'authorization, content-type';
        headers['access-control-max-age'] = String(PREFLIGHT_MAX_AGE);
      }
      // 200 with an empty body (any 2xx passes a preflight; the kit's responses always carry a body).
      return { status: 200, text: '', headers };
    },
  };
}
