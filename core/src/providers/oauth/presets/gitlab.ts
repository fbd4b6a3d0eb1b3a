/**
 * `gitlab`: GitLab OAuth 2.0 (https://docs.gitlab.com/api/oauth2/), profile
 * from `GET /api/v4/user` (https://docs.gitlab.com/api/users/). Self-managed
 * instances set `baseUrl`.
 * @module
 */
import type { Profile } from '../../../types.js';
import { definePreset, str, type PresetOptions } from './define.js';

export interface GitlabOptions extends PresetOptions {
  /** The GitLab instance. Default `https://gitlab.com`. */
  baseUrl?: string;
}

/** Maps `GET /api/v4/user`. GitLab does not say the email is verified, so `emailVerified` stays null. */
export function gitlabProfile(p: Profile) {
  return {
    id: String(p.id),
    name: str(p.name) ?? str(p.username),
    email: str(p.email),
    image: str(p.avatar_url),
    emailVerified: null,
  };
}

/**
 * GitLab sign-in (scope `read_user`).
 * @example
 * ```ts
 * gitlab({ clientId: process.env.GITLAB_ID!, clientSecret: process.env.GITLAB_SECRET! })
 * ```
 */
export const gitlab = /* @__PURE__ */ definePreset<GitlabOptions>({
  id: 'gitlab',
  name: 'GitLab',
  type: 'oauth',
  endpoints: (o) => {
    const base = (o.baseUrl ?? 'https://gitlab.com').replace(/\/+$/, '');
    return { authorization: `${base}/oauth/authorize`, token: `${base}/oauth/token`, userinfo: `${base}/api/v4/user` };
  },
  scope: 'read_user',
  profile: gitlabProfile,
});
