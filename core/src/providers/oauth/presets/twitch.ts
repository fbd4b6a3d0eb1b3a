/**
 * `twitch`: Twitch OpenID Connect authorization code flow
 * (https://dev.twitch.tv/docs/authentication/getting-tokens-oidc/), discovery
 * of `https://id.twitch.tv/oauth2`.
 * @module
 */
import { definePreset, standardClaimsProfile, type OidcPresetOptions } from './define.js';

export type TwitchOptions = OidcPresetOptions;

/**
 * Twitch returns `email`, `picture` and `preferred_username` only when asked for them with the `claims`
 * parameter (OIDC Core §5.5).
 */
const CLAIMS = JSON.stringify({
  id_token: { email: null, email_verified: null },
  userinfo: { email: null, email_verified: null, picture: null, preferred_username: null },
});

/**
 * Twitch sign-in (scope `openid user:read:email`; the client secret goes in
 * the token request body). Profile: the standard claims; the name is the
 * `preferred_username`.
 * @example
 * ```ts
 * twitch({ clientId: process.env.TWITCH_ID!, clientSecret: process.env.TWITCH_SECRET! })
 * ```
 */
export const twitch = /* @__PURE__ */ definePreset<TwitchOptions>({
  id: 'twitch',
  name: 'Twitch',
  type: 'oidc',
  issuer: () => 'https://id.twitch.tv/oauth2',
  scope: 'openid user:read:email',
  clientAuth: 'client_secret_post',
  authorizationParams: { claims: CLAIMS },
  profile: standardClaimsProfile,
});
