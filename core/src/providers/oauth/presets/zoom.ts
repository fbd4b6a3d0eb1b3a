/**
 * `zoom`: Zoom OAuth (https://developers.zoom.us/docs/integrations/oauth/),
 * profile from `GET /v2/users/me`.
 * @module
 */
import type { Profile } from '../../../types.js';
import { definePreset, str, type PresetOptions } from './define.js';

export type ZoomOptions = PresetOptions;

/** Maps `GET /v2/users/me` (`id`, `display_name` or first + last name, `email`, `pic_url`). */
export function zoomProfile(p: Profile) {
  const full = [str(p.first_name), str(p.last_name)].filter(Boolean).join(' ');
  return {
    id: String(p.id),
    name: str(p.display_name) ?? (full || null),
    email: str(p.email),
    image: str(p.pic_url),
    emailVerified: null,
  };
}

/**
 * Zoom sign-in. Zoom scopes are chosen in the app's settings, so none is sent by default.
 * @example
 * ```ts
 * zoom({ clientId: process.env.ZOOM_ID!, clientSecret: process.env.ZOOM_SECRET! })
 * ```
 */
export const zoom = /* @__PURE__ */ definePreset<ZoomOptions>({
  id: 'zoom',
  name: 'Zoom',
  type: 'oauth',
  endpoints: () => ({
    authorization: 'https://zoom.us/oauth/authorize',
    token: 'https://zoom.us/oauth/token',
    userinfo: 'https://api.zoom.us/v2/users/me',
  }),
  scope: '',
  profile: zoomProfile,
});
