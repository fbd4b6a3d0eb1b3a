/**
 * The error of the OAuth endpoints (token, revocation, introspection, UserInfo), answered in the shape RFC 6749
 * §5.2 and RFC 6750 §3.1 define (`{ error, error_description }`), not the kit's error shape.
 * @module
 * @internal
 */
import type { ActionResult } from '../../plugin-kit.js';

/** An OAuth error response: `error` is an RFC 6749 / 6750 code such as `invalid_grant`. */
export class OAuthError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
    readonly status = 400,
    readonly headers: Record<string, string> = {},
  ) {
    super(description);
    this.name = 'OAuthError';
  }
}

/** `Cache-Control: no-store` for every answer that carries or describes tokens (RFC 6749 §5.1). */
export const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' } as const;

/** Runs an OAuth endpoint: an {@link OAuthError} becomes its RFC-shaped JSON answer; anything else is thrown on. */
export async function oauthEndpoint(run: () => Promise<ActionResult>): Promise<ActionResult> {
  try {
    return await run();
  } catch (e) {
    if (!(e instanceof OAuthError)) throw e;
    return {
      status: e.status,
      json: { error: e.error, error_description: e.description },
      headers: { ...NO_STORE, ...e.headers },
    };
  }
}
