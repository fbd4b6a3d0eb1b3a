/**
 * The canonical origin: where every absolute URL the kit sends out (email
 * links, OAuth `redirect_uri`, `GET /providers` URLs, passkey defaults)
 * points, so a forged `Host` header can never shape a link (OWASP ASVS
 * V5.1, host header injection).
 *
 * - With `baseURL` (or the `AUTH_URL` environment variable), links always
 *   use it; the request's Host is ignored.
 * - Without it, the request's own origin is used only when `trustHost` (or
 *   `AUTH_TRUST_HOST=true`) is set, or outside production (`NODE_ENV` is
 *   not `production`, read from `createAuth({ env })` first, then
 *   `process.env`); in production `createAuth` refuses to start.
 * @internal
 * @module
 */
import { AuthConfigError } from '../errors.js';
import { isProduction } from '../config.js';

/** How request origins are treated, fixed at `createAuth`. */
export interface OriginPolicy {
  /** The canonical origin (`https://app.example.com`), when configured. */
  readonly baseURL: string | undefined;
  /**
   * Origins besides `baseURL` that may post state changes, be redirected to, and shape links when a request
   * arrives on them.
   */
  readonly trustedOrigins: readonly string[];
}

function truthy(value: unknown): boolean {
  return value === true || value === 'true' || value === '1';
}

/**
 * Normalises a configured origin (`https://a.example/path` → `https://a.example`). @throws TypeError for a
 * non-URL or a non-http(s) scheme.
 */
export function normalizeOrigin(origin: string): string {
  const url = new URL(origin);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`not an http(s) URL: ${origin}`);
  return url.origin;
}

/**
 * Resolves `baseURL` / `trustHost` (options first, then `AUTH_URL` /
 * `AUTH_TRUST_HOST` in `env`) and `trustedOrigins`.
 * @throws AuthConfigError (`INVALID_CONFIG`) for a malformed URL, or in
 *   production when neither `baseURL` nor `trustHost` is set.
 */
export function resolveOriginPolicy(
  options: {
    baseURL?: string | undefined;
    trustHost?: boolean | undefined;
    trustedOrigins?: readonly string[] | undefined;
  },
  env: Record<string, unknown>,
): OriginPolicy {
  const rawBase =
    options.baseURL ?? (typeof env.AUTH_URL === 'string' && env.AUTH_URL !== '' ? env.AUTH_URL : undefined);
  let baseURL: string | undefined;
  if (rawBase !== undefined) {
    try {
      baseURL = normalizeOrigin(rawBase);
    } catch {
      throw new AuthConfigError(
        `Invalid auth config: baseURL (or AUTH_URL) must be an absolute http(s) URL such as "https://app.example.com", got ${JSON.stringify(rawBase)}`,
      );
    }
  }
  let trustedOrigins: string[];
  try {
    trustedOrigins = (options.trustedOrigins ?? []).map(normalizeOrigin);
  } catch {
    throw new AuthConfigError(
      'Invalid auth config: trustedOrigins must be absolute URLs such as "https://app.example.com"',
    );
  }
  const trustHost = options.trustHost ?? truthy(env.AUTH_TRUST_HOST);
  if (!baseURL && !trustHost && isProduction(env)) {
    throw new AuthConfigError(
      'Invalid auth config: in production set `baseURL` (or the AUTH_URL environment variable) to the public origin, e.g. "https://app.example.com", so links are never built from the request\'s Host header; or set `trustHost: true` (AUTH_TRUST_HOST=true) when a proxy you control fixes the Host',
    );
  }
  return Object.freeze({ baseURL, trustedOrigins: Object.freeze(trustedOrigins) });
}

/**
 * The origin links are built from for a request that arrived on
 * `requestOrigin`: always `baseURL` when it is configured (a trusted origin
 * is allowed as a redirect target and as a form's `Origin`, but never
 * receives a token-bearing link built from a Host header); the request's own
 * origin only when no `baseURL` is configured.
 */
export function publicOrigin(policy: OriginPolicy, requestOrigin: string): string {
  return policy.baseURL ?? requestOrigin;
}
