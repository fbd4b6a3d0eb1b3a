/**
 * `facebook`: Facebook Login (https://developers.facebook.com/docs/facebook-login/guides/advanced/manual-flow),
 * profile from the Graph API `GET /me?fields=id,name,email,picture`.
 * @module
 */
import type { Profile } from '../../../types.js';
import { definePreset, str, type PresetOptions } from './define.js';

export interface FacebookOptions extends PresetOptions {
  /** Graph API version. Default `v23.0`. */
  version?: string;
}

/** Maps the Graph API user (`picture.data.url` is the profile picture). Facebook does not flag the email verified. */
export function facebookProfile(p: Profile) {
  const picture = (p.picture as { data?: { url?: unknown } } | undefined)?.data?.url;
  return { id: String(p.id), name: str(p.name), email: str(p.email), image: str(picture), emailVerified: null };
}

/**
 * Facebook sign-in (scope `email public_profile`).
 * @example
 * ```ts
 * facebook({ clientId: process.env.FACEBOOK_ID!, clientSecret: process.env.FACEBOOK_SECRET! })
 * ```
 */
export const facebook = /* @__PURE__ */ definePreset<FacebookOptions>({
  id: 'facebook',
  name: 'Facebook',
  type: 'oauth',
  endpoints: (o) => {
    const v = o.version ?? 'v23.0';
    return {
      authorization: `https://www.facebook.com/${v}/dialog/oauth`,
      token: `https://graph.facebook.com/${v}/oauth/access_token`,
      userinfo: `https://graph.facebook.com/${v}/me?fields=id,name,email,picture`,
    };
  },
  scope: 'email public_profile',
  clientAuth: 'client_secret_post',
  profile: facebookProfile,
});
