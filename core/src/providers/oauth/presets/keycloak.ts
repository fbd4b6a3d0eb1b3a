/**
 * `keycloak`: Keycloak OpenID Connect (https://www.keycloak.org/securing-apps/oidc-layers),
 * discovery of the realm given as `issuer`.
 * @module
 */
import { definePreset, required, standardClaimsProfile, type OidcPresetOptions } from './define.js';

export interface KeycloakOptions extends OidcPresetOptions {
  /** The realm, e.g. `https://sso.example.com/realms/main`. */
  issuer: string;
}

/**
 * Keycloak sign-in (scope `openid email profile`). Profile: the standard
 * claims (`preferred_username` when there is no `name`).
 * @throws AuthConfigError without `issuer`.
 * @example
 * ```ts
 * keycloak({ clientId: 'web', clientSecret: process.env.KEYCLOAK_SECRET!, issuer: 'https://sso.example.com/realms/main' })
 * ```
 */
export const keycloak = /* @__PURE__ */ definePreset<KeycloakOptions>({
  id: 'keycloak',
  name: 'Keycloak',
  type: 'oidc',
  issuer: (o) => required(o.issuer, 'keycloak', 'issuer'),
  scope: 'openid email profile',
  profile: standardClaimsProfile,
});
