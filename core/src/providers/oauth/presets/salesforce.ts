/**
 * `salesforce`: Salesforce OpenID Connect
 * (https://help.salesforce.com/s/articleView?id=sf.sso_provider_openid_connect.htm),
 * discovery of `https://login.salesforce.com` (sandboxes: `issuer:
 * 'https://test.salesforce.com'`, or a My Domain URL).
 * @module
 */
import { definePreset, standardClaimsProfile, type OidcPresetOptions } from './define.js';

export type SalesforceOptions = OidcPresetOptions;

/**
 * Salesforce sign-in (scope `openid email profile`). Profile: the standard
 * claims (`sub` is the identity URL of the user).
 * @example
 * ```ts
 * salesforce({ clientId: process.env.SALESFORCE_ID!, clientSecret: process.env.SALESFORCE_SECRET! })
 * ```
 */
export const salesforce = /* @__PURE__ */ definePreset<SalesforceOptions>({
  id: 'salesforce',
  name: 'Salesforce',
  type: 'oidc',
  issuer: () => 'https://login.salesforce.com',
  scope: 'openid email profile',
  profile: standardClaimsProfile,
});
