/**
 * `line`: LINE Login v2.1, OpenID Connect (https://developers.line.biz/en/docs/line-login/integrate-line-login/),
 * discovery of `https://access.line.me`.
 * @module
 */
import { definePreset, standardClaimsProfile, type OidcPresetOptions } from './define.js';

export type LineOptions = OidcPresetOptions;

/**
 * LINE sign-in (scope `openid profile email`; the channel secret goes in
 * the token request body). The email comes in the ID token only (LINE's
 * UserInfo has `sub`, `name`, `picture`); LINE does not flag it verified.
 * @example
 * ```ts
 * line({ clientId: process.env.LINE_CHANNEL_ID!, clientSecret: process.env.LINE_CHANNEL_SECRET! })
 * ```
 */
export const line = /* @__PURE__ */ definePreset<LineOptions>({
  id: 'line',
  name: 'LINE',
  type: 'oidc',
  issuer: () => 'https://access.line.me',
  scope: 'openid profile email',
  clientAuth: 'client_secret_post',
  profile: (claims) => ({ ...standardClaimsProfile(claims), emailVerified: null }),
});
