/**
 * `linkedin`: Sign In with LinkedIn using OpenID Connect
 * (https://learn.microsoft.com/linkedin/consumer/integrations/self-serve/sign-in-with-linkedin-v2),
 * discovery of `https://www.linkedin.com/oauth`.
 * @module
 */
import { definePreset, standardClaimsProfile, type OidcPresetOptions } from './define.js';

export type LinkedinOptions = OidcPresetOptions;

/**
 * LinkedIn sign-in (scope `openid profile email`; the client secret goes in
 * the token request body). Profile: the standard claims (`sub`, `name`,
 * `email`, `email_verified`, `picture`). LinkedIn's ID token has no `nonce`,
 * so none is sent (state and PKCE still protect the callback). The kit
 * always sends a PKCE `code_verifier`; LinkedIn accepts it only for apps
 * where it has PKCE enabled.
 * @example
 * ```ts
 * linkedin({ clientId: process.env.LINKEDIN_ID!, clientSecret: process.env.LINKEDIN_SECRET! })
 * ```
 */
export const linkedin = /* @__PURE__ */ definePreset<LinkedinOptions>({
  id: 'linkedin',
  name: 'LinkedIn',
  type: 'oidc',
  issuer: () => 'https://www.linkedin.com/oauth',
  scope: 'openid profile email',
  clientAuth: 'client_secret_post',
  // LinkedIn's ID token never carries the nonce.
  nonce: false,
  profile: standardClaimsProfile,
});
