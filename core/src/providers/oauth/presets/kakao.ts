/**
 * `kakao`: Kakao Login REST API (https://developers.kakao.com/docs/latest/en/kakaologin/rest-api),
 * profile from `GET https://kapi.kakao.com/v2/user/me`.
 * @module
 */
import type { Profile } from '../../../types.js';
import { definePreset, str, type PresetOptions } from './define.js';

export type KakaoOptions = PresetOptions;

/**
 * Maps `GET /v2/user/me` (`id`, `kakao_account.email`, `is_email_valid`, `is_email_verified`,
 * `profile.nickname`, `profile.profile_image_url`).
 */
export function kakaoProfile(p: Profile) {
  const account = (p.kakao_account ?? {}) as Profile;
  const profile = (account.profile ?? {}) as Profile;
  const email = str(account.email);
  return {
    id: String(p.id),
    name: str(profile.nickname),
    email,
    image: str(profile.profile_image_url),
    emailVerified: email && account.is_email_valid === true && account.is_email_verified === true ? new Date() : null,
  };
}

/**
 * Kakao sign-in (scope `profile_nickname profile_image account_email`; the
 * client secret goes in the token request body).
 * @example
 * ```ts
 * kakao({ clientId: process.env.KAKAO_REST_KEY!, clientSecret: process.env.KAKAO_SECRET! })
 * ```
 */
export const kakao = /* @__PURE__ */ definePreset<KakaoOptions>({
  id: 'kakao',
  name: 'Kakao',
  type: 'oauth',
  endpoints: () => ({
    authorization: 'https://kauth.kakao.com/oauth/authorize',
    token: 'https://kauth.kakao.com/oauth/token',
    userinfo: 'https://kapi.kakao.com/v2/user/me',
  }),
  scope: 'profile_nickname profile_image account_email',
  clientAuth: 'client_secret_post',
  profile: kakaoProfile,
});
