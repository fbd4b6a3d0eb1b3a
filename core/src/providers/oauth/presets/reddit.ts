/**
 * `reddit`: Reddit OAuth 2.0 (https://github.com/reddit-archive/reddit/wiki/OAuth2),
 * profile from `GET https://oauth.reddit.com/api/v1/me`.
 * @module
 */
import type { Profile } from '../../../types.js';
import { definePreset, str, type PresetOptions } from './define.js';

export type RedditOptions = PresetOptions;

/** Maps `GET /api/v1/me`. Reddit escapes `&` in `icon_img` as `&amp;`; gives no email. */
export function redditProfile(p: Profile) {
  const icon = str(p.icon_img)?.replaceAll('&amp;', '&') ?? null;
  return { id: String(p.id), name: str(p.name), email: null, image: icon, emailVerified: null };
}

/**
 * Reddit sign-in (scope `identity`). Reddit requires a descriptive
 * `User-Agent` on every request; pass `authorizationParams: { duration:
 * 'permanent' }` for a refresh token.
 * @example
 * ```ts
 * reddit({ clientId: process.env.REDDIT_ID!, clientSecret: process.env.REDDIT_SECRET! })
 * ```
 */
export const reddit = /* @__PURE__ */ definePreset<RedditOptions>({
  id: 'reddit',
  name: 'Reddit',
  type: 'oauth',
  endpoints: () => ({
    authorization: 'https://www.reddit.com/api/v1/authorize',
    token: 'https://www.reddit.com/api/v1/access_token',
    userinfo: 'https://oauth.reddit.com/api/v1/me',
  }),
  scope: 'identity',
  headers: { 'user-agent': 'web:framework-auth:1 (sign-in)' },
  profile: redditProfile,
});
