/**
 * A provider's sign-in flow travels with the provider object: `createOAuth2Provider` and the presets attach the
 * OAuth 2.0 / OIDC flow, `email()` the magic-link flow. The core's `/signin/:provider` and `/callback/:provider`
 * routes call the flow of the provider they matched, so an app bundles only the flows of the providers it
 * imports (a password-only app carries no OAuth code).
 * @internal
 * @module
 */
import type { ActionResult, RouteContext } from '../contract/types.js';

/** What a provider type does at the core's routes. */
export interface SignInFlow<P = any> {
  /** `POST /signin/:provider`: start the flow (redirect to the provider, send the link). */
  signIn(ctx: RouteContext, provider: P): Promise<ActionResult>;
  /** `GET|POST /callback/:provider`: complete it. */
  callback(ctx: RouteContext, provider: P): Promise<ActionResult>;
  /**
   * `auth.getAccessToken`'s refresh (RFC 6749 §6): fresh tokens for a stored refresh token. Only for flows
   * whose accounts hold tokens.
   */
  refresh?(provider: P, refreshToken: string): Promise<RefreshedTokens>;
}

/** The token response of a refresh, as stored on the account. */
export interface RefreshedTokens {
  access_token: string;
  refresh_token?: string | undefined;
  expires_in?: number | undefined;
  id_token?: string | undefined;
  scope?: string | undefined;
}

/**
 * A shared registry key (`Symbol.for`), so a provider made by one copy of the kit works with another's
 * `createAuth`, and an enumerable symbol, so `{ ...github(options), id: 'gh-work' }` keeps its flow.
 */
const FLOW = Symbol.for('@framework/auth.signInFlow.v1');

/** `provider` with `flow` attached (in place; returns it). */
export function withFlow<P extends object>(provider: P, flow: SignInFlow<P>): P {
  (provider as Record<symbol, unknown>)[FLOW] = flow;
  return provider;
}

/** The flow attached to `provider`, if any. */
export function flowOf<P extends object>(provider: P): SignInFlow<P> | undefined {
  return (provider as Record<symbol, SignInFlow<P> | undefined>)[FLOW];
}
