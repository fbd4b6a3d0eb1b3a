/**
 * `spotify`: Spotify authorization code flow
 * (https://developer.spotify.com/documentation/web-api/tutorials/code-flow),
 * profile from `GET /v1/me`.
 * @module
 */
import type { Profile } from '../../../types.js';
import { definePreset, str, type PresetOptions } from './define.js';

export type SpotifyOptions = PresetOptions;

/** Maps `GET /v1/me`. Spotify documents the email as unverified, so `emailVerified` stays null. */
export function spotifyProfile(p: Profile) {
  const images = Array.isArray(p.images) ? (p.images as Array<{ url?: unknown }>) : [];
  return {
    id: String(p.id),
    name: str(p.display_name) ?? String(p.id),
    email: str(p.email),
    image: str(images[0]?.url),
    emailVerified: null,
  };
}

/**
 * Spotify sign-in (scope `user-read-email`).
 * @example
 * ```ts
 * spotify({ clientId: process.env.SPOTIFY_ID!, clientSecret: process.env.SPOTIFY_SECRET! })
 * ```
 */
export const spotify = /* @__PURE__ */ definePreset<SpotifyOptions>({
  id: 'spotify',
  name: 'Spotify',
  type: 'oauth',
  endpoints: () => ({
    authorization: 'https://accounts.spotify.com/authorize',
    token: 'https://accounts.spotify.com/api/token',
    userinfo: 'https://api.spotify.com/v1/me',
  }),
  scope: 'user-read-email',
  profile: spotifyProfile,
});
