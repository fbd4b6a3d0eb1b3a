/**
 * `yandex`: Yandex ID OAuth (https://yandex.com/dev/id/doc/en/), profile
 * from `GET https://login.yandex.ru/info?format=json`.
 * @module
 */
import type { Profile } from '../../../types.js';
import { definePreset, fetchJson, str, type PresetOptions } from './define.js';

export type YandexOptions = PresetOptions;

/** Maps `login.yandex.ru/info`; the avatar URL is built from `default_avatar_id` (size `islands-200`). */
export function yandexProfile(p: Profile) {
  const emails = Array.isArray(p.emails) ? (p.emails as unknown[]) : [];
  const avatar = p.is_avatar_empty === true ? null : str(p.default_avatar_id);
  return {
    id: String(p.id),
    name: str(p.display_name) ?? str(p.real_name) ?? str(p.login),
    email: str(p.default_email) ?? str(emails[0]),
    image: avatar ? `https://avatars.yandex.net/get-yapic/${encodeURIComponent(avatar)}/islands-200` : null,
    emailVerified: null,
  };
}

/**
 * Yandex sign-in (scope `login:info login:email login:avatar`). The user
 * info API takes the token as `Authorization: OAuth <token>`.
 * @example
 * ```ts
 * yandex({ clientId: process.env.YANDEX_ID!, clientSecret: process.env.YANDEX_SECRET! })
 * ```
 */
export const yandex = /* @__PURE__ */ definePreset<YandexOptions>({
  id: 'yandex',
  name: 'Yandex',
  type: 'oauth',
  endpoints: () => ({
    authorization: 'https://oauth.yandex.com/authorize',
    token: 'https://oauth.yandex.com/token',
    userinfo: 'https://login.yandex.ru/info?format=json',
  }),
  scope: 'login:info login:email login:avatar',
  userinfo: (e) => (tokens, ctx) => fetchJson(ctx, e.userinfo!, { authorization: `OAuth ${tokens.access_token}` }),
  profile: yandexProfile,
});
