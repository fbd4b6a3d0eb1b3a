/**
 * `twitter`: X (Twitter) OAuth 2.0 authorization code flow with PKCE
 * (https://docs.x.com/fundamentals/authentication/oauth-2-0/authorization-code),
 * profile from `GET /2/users/me`.
 * @module
 */
import type { Profile } from '../../../types.js';
import { definePreset, str, type PresetOptions } from './define.js';

export type TwitterOptions = PresetOptions;

/** Maps `GET /2/users/me` (`{data: {id, name, username, profile_image_url}}`). X gives no email here. */
export function twitterProfile(p: Profile) {
  const d = (p.data ?? {}) as Profile;
  return {
    id: String(d.id),
    name: str(d.name) ?? str(d.username),
    email: null,
    image: str(d.profile_image_url),
    emailVerified: null,
  };
}

/**
 * X sign-in (scope `users.read tweet.read offline.access`; a confidential
 * client authenticates with HTTP Basic).
 * @example
 * ```ts
 * twitter({ clientId: process.env.X_ID!, clientSecret: process.env.X_SECRET! })
 * ```
 */
export const twitter = /* @__PURE__ */ definePreset<TwitterOptions>({
  id: 'twitter',
  name: 'X',
  type: 'oauth',
  endpoints: () => ({
    authorization: 'https://x.com/i/oauth2/authorize',
    token: 'https://api.x.com/2/oauth2/token',
    userinfo: 'https://api.x.com/2/users/me?user.fields=profile_image_url',
  }),
  scope: 'users.read tweet.read offline.access',
  profile: twitterProfile,
});
