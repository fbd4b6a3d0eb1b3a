/**
 * `okta`: Okta OpenID Connect (https://developer.okta.com/docs/concepts/auth-servers/),
 * discovery of the org or custom authorization server given as `issuer`.
 * @module
 */
import { definePreset, required, standardClaimsProfile, type OidcPresetOptions } from './define.js';

export interface OktaOptions extends OidcPresetOptions {
  /**
   * The authorization server, e.g. `https://dev-123456.okta.com/oauth2/default` (custom) or
   * `https://dev-123456.okta.com` (org).
   */
  issuer: string;
}

/**
 * Okta sign-in (scope `openid email profile`). Profile: the standard claims.
 * @throws AuthConfigError without `issuer`.
 * @example
 * ```ts
 * okta({ clientId: process.env.OKTA_ID!, clientSecret: process.env.OKTA_SECRET!, issuer: 'https://dev-123456.okta.com/oauth2/default' })
 * ```
 */
export const okta = /* @__PURE__ */ definePreset<OktaOptions>({
  id: 'okta',
  name: 'Okta',
  type: 'oidc',
  issuer: (o) => required(o.issuer, 'okta', 'issuer'),
  scope: 'openid email profile',
  profile: standardClaimsProfile,
});
