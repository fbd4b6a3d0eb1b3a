/**
 * `auth0`: Auth0 OpenID Connect (https://auth0.com/docs/authenticate/protocols/openid-connect-protocol),
 * discovery of `https://<domain>/`.
 * @module
 */
import { definePreset, required, standardClaimsProfile, type OidcPresetOptions } from './define.js';

export interface Auth0Options extends OidcPresetOptions {
  /**
   * The tenant or custom domain, e.g. `example.us.auth0.com` (the issuer is `https://<domain>/`, trailing
   * slash included). Or give `issuer`.
   */
  domain?: string;
}

/**
 * Auth0 sign-in (scope `openid email profile`). Profile: the standard
 * claims (`nickname` when there is no `name`).
 * @throws AuthConfigError without `domain` or `issuer`.
 * @example
 * ```ts
 * auth0({ clientId: process.env.AUTH0_ID!, clientSecret: process.env.AUTH0_SECRET!, domain: 'example.us.auth0.com' })
 * ```
 */
export const auth0 = /* @__PURE__ */ definePreset<Auth0Options>({
  id: 'auth0',
  name: 'Auth0',
  type: 'oidc',
  issuer: (o) => `https://${required(o.domain, 'auth0', 'domain')}/`,
  scope: 'openid email profile',
  profile: standardClaimsProfile,
});
