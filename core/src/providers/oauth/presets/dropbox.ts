/**
 * `dropbox`: Dropbox OAuth 2.0 (https://developers.dropbox.com/oauth-guide),
 * profile from `POST /2/users/get_current_account`.
 * @module
 */
import type { Profile } from '../../../types.js';
import { definePreset, fetchJson, isTrue, str, type PresetOptions } from './define.js';

export type DropboxOptions = PresetOptions;

/**
 * Maps the `FullAccount` of `get_current_account` (`account_id`, `name.display_name`, `email`,
 * `email_verified`, `profile_photo_url`).
 */
export function dropboxProfile(p: Profile) {
  const email = str(p.email);
  return {
    id: String(p.account_id),
    name: str((p.name as { display_name?: unknown } | undefined)?.display_name),
    email,
    image: str(p.profile_photo_url),
    emailVerified: email && isTrue(p.email_verified) ? new Date() : null,
  };
}

/**
 * Dropbox sign-in (scope `account_info.read`, `token_access_type=offline`
 * for a refresh token). The account API is an RPC endpoint: a POST without
 * a body.
 * @example
 * ```ts
 * dropbox({ clientId: process.env.DROPBOX_ID!, clientSecret: process.env.DROPBOX_SECRET! })
 * ```
 */
export const dropbox = /* @__PURE__ */ definePreset<DropboxOptions>({
  id: 'dropbox',
  name: 'Dropbox',
  type: 'oauth',
  endpoints: () => ({
    authorization: 'https://www.dropbox.com/oauth2/authorize',
    token: 'https://api.dropboxapi.com/oauth2/token',
    userinfo: 'https://api.dropboxapi.com/2/users/get_current_account',
  }),
  scope: 'account_info.read',
  authorizationParams: { token_access_type: 'offline' },
  userinfo: (e) => (tokens, ctx) =>
    fetchJson(ctx, e.userinfo!, { method: 'POST', authorization: `Bearer ${tokens.access_token}` }),
  profile: dropboxProfile,
});
