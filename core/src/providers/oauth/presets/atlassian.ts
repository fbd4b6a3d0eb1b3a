/**
 * `atlassian`: Atlassian OAuth 2.0 (3LO) (https://developer.atlassian.com/cloud/jira/platform/oauth-2-3lo-apps/),
 * profile from the User Identity API `GET https://api.atlassian.com/me`.
 * @module
 */
import type { Profile } from '../../../types.js';
import { definePreset, isTrue, str, type PresetOptions } from './define.js';

export type AtlassianOptions = PresetOptions;

/** Maps `GET /me` (`account_id`, `name`, `email`, `email_verified`, `picture`). */
export function atlassianProfile(p: Profile) {
  const email = str(p.email);
  return {
    id: String(p.account_id),
    name: str(p.name) ?? str(p.nickname),
    email,
    image: str(p.picture),
    emailVerified: email && isTrue(p.email_verified) ? new Date() : null,
  };
}

/**
 * Atlassian sign-in (scope `read:me`, `audience=api.atlassian.com`,
 * `prompt=consent`; the client secret goes in the token request body).
 * @example
 * ```ts
 * atlassian({ clientId: process.env.ATLASSIAN_ID!, clientSecret: process.env.ATLASSIAN_SECRET! })
 * ```
 */
export const atlassian = /* @__PURE__ */ definePreset<AtlassianOptions>({
  id: 'atlassian',
  name: 'Atlassian',
  type: 'oauth',
  endpoints: () => ({
    authorization: 'https://auth.atlassian.com/authorize',
    token: 'https://auth.atlassian.com/oauth/token',
    userinfo: 'https://api.atlassian.com/me',
  }),
  scope: 'read:me',
  clientAuth: 'client_secret_post',
  authorizationParams: { audience: 'api.atlassian.com', prompt: 'consent' },
  profile: atlassianProfile,
});
