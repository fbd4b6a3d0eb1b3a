/**
 * `microsoftEntraId`: Microsoft Entra ID (Azure AD) OpenID Connect, v2.0
 * endpoints (https://learn.microsoft.com/entra/identity-platform/v2-protocols-oidc).
 * @module
 */
import { AuthConfigError } from '../../../errors.js';
import type { Profile } from '../../../types.js';
import { definePreset, required, str, type OidcPresetOptions } from './define.js';

export interface MicrosoftEntraIdOptions extends OidcPresetOptions {
  /**
   * The directory (tenant) ID, a GUID. The multi-tenant aliases (`common`,
   * `organizations`, `consumers`) are not accepted: their discovery document
   * names a templated issuer (`{tenantid}`) that no ID token can be checked
   * against.
   */
  tenantId: string;
}

const MULTI_TENANT = new Set(['common', 'organizations', 'consumers']);

function tenant(value: string | undefined): string {
  const id = required(value, 'microsoft-entra-id', 'tenantId');
  if (MULTI_TENANT.has(id.toLowerCase())) {
    throw new AuthConfigError(
      `Invalid provider: "microsoft-entra-id" needs a tenant ID, not "${id}" (its ID tokens name the user's own tenant as issuer)`,
    );
  }
  return id;
}

/**
 * Maps Entra ID claims. Entra's `email` claim is not verified (an admin can
 * set any address), so `emailVerified` is always null and `trustEmail`
 * cannot link by it.
 */
export function microsoftEntraIdProfile(claims: Profile) {
  return { id: String(claims.sub), name: str(claims.name), email: str(claims.email), image: null, emailVerified: null };
}

/**
 * Microsoft Entra ID sign-in: discovery of
 * `https://login.microsoftonline.com/<tenantId>/v2.0`; the profile is the ID
 * token's (no UserInfo request: Microsoft documents the ID token as a
 * superset of it).
 * @throws AuthConfigError without `tenantId` (or `issuer`), or for `common`, `organizations`, `consumers`.
 * @example
 * ```ts
 * microsoftEntraId({ clientId: process.env.ENTRA_ID!, clientSecret: process.env.ENTRA_SECRET!, tenantId: process.env.ENTRA_TENANT! })
 * ```
 */
export const microsoftEntraId = /* @__PURE__ */ definePreset<MicrosoftEntraIdOptions>({
  id: 'microsoft-entra-id',
  name: 'Microsoft',
  type: 'oidc',
  issuer: (o) => `https://login.microsoftonline.com/${encodeURIComponent(tenant(o.tenantId))}/v2.0`,
  scope: 'openid profile email',
  // Microsoft documents the ID token as a superset of its UserInfo response (a Graph call): skip it.
  skipUserInfo: true,
  profile: microsoftEntraIdProfile,
});
