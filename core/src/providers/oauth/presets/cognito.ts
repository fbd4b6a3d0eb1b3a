/**
 * `cognito`: Amazon Cognito user pools, OpenID Connect
 * (https://docs.aws.amazon.com/cognito/latest/developerguide/cognito-user-pools-oidc-flow.html),
 * discovery of `https://cognito-idp.<region>.amazonaws.com/<userPoolId>`.
 * @module
 */
import { definePreset, required, standardClaimsProfile, type OidcPresetOptions } from './define.js';

export interface CognitoOptions extends OidcPresetOptions {
  /** The user pool id, e.g. `us-east-1_AbCdEfGhI`; its region prefix gives the issuer's region. Or give `issuer`. */
  userPoolId?: string;
}

/** The issuer of a user pool: the region is the part of the id before `_`. */
export function cognitoIssuer(userPoolId: string): string {
  const region = userPoolId.split('_')[0];
  return `https://cognito-idp.${region}.amazonaws.com/${userPoolId}`;
}

/**
 * Cognito sign-in (scope `openid email profile`). Profile: the standard
 * claims; Cognito's UserInfo sends `email_verified` as the string `"true"`,
 * which counts as verified.
 * @throws AuthConfigError without `userPoolId` or `issuer`.
 * @example
 * ```ts
 * cognito({ clientId: process.env.COGNITO_ID!, clientSecret: process.env.COGNITO_SECRET!, userPoolId: 'us-east-1_AbCdEfGhI' })
 * ```
 */
export const cognito = /* @__PURE__ */ definePreset<CognitoOptions>({
  id: 'cognito',
  name: 'Amazon Cognito',
  type: 'oidc',
  issuer: (o) => cognitoIssuer(required(o.userPoolId, 'cognito', 'userPoolId')),
  scope: 'openid email profile',
  profile: standardClaimsProfile,
});
