/**
 * `slack`: Sign in with Slack, OpenID Connect
 * (https://docs.slack.dev/authentication/sign-in-with-slack/), discovery of
 * `https://slack.com`.
 * @module
 */
import { definePreset, standardClaimsProfile, type OidcPresetOptions } from './define.js';

export type SlackOptions = OidcPresetOptions;

/**
 * Slack sign-in (scope `openid profile email`). Slack's Web API answers
 * errors with HTTP 200 and `{ok: false, error}`; those are read as the
 * errors they are. Profile: the standard claims.
 * @example
 * ```ts
 * slack({ clientId: process.env.SLACK_ID!, clientSecret: process.env.SLACK_SECRET! })
 * ```
 */
export const slack = /* @__PURE__ */ definePreset<SlackOptions>({
  id: 'slack',
  name: 'Slack',
  type: 'oidc',
  issuer: () => 'https://slack.com',
  scope: 'openid profile email',
  clientAuth: 'client_secret_post',
  tokenErrorsWith200: true,
  profile: standardClaimsProfile,
});
