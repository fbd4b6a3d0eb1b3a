/**
 * The records and storage contract of `sso()`: identity providers per organization, domain claims, and the
 * single-use ids SAML needs (assertion ids against replay, AuthnRequest ids for `InResponseTo`).
 * @module
 */

/** Which protocol an SSO provider speaks. */
export type SsoProviderType = 'oidc' | 'saml';

/**
 * How an organization role is read from the IdP's claims (OIDC) or attributes (SAML) at sign-in: the first value
 * of `attribute` found in `values` gives the role; otherwise `defaultRole`.
 */
export interface SsoRoleMapping {
  /** The claim or attribute name, e.g. `groups` or `http://schemas.xmlsoap.org/claims/Group`. */
  attribute: string;
  /** Attribute value → organization role, e.g. `{ 'acme-admins': 'admin' }`. */
  values: Record<string, string>;
  /** The role when no value matches. Default: the `sso()` option `roleMapping.defaultRole`, else `member`. */
  defaultRole?: string;
}

/** The OIDC settings of a provider, as stored (the client secret encrypted). */
export interface StoredOidcConfig {
  /** The issuer identifier; the endpoints and keys come from its discovery document. */
  issuer: string;
  clientId: string;
  /** The client secret, encrypted at rest (AES-256-GCM under the auth `secret`, as the kit stores OAuth tokens). */
  clientSecret: string;
  /** Space-separated scopes. Default `openid email profile`. */
  scope?: string;
}

/** The SAML settings of a provider: the IdP's entity id, its SSO URL and signing certificates. */
export interface StoredSamlConfig {
  entityId: string;
  ssoUrl: string;
  /** PEM or base64 DER certificates the IdP signs with. */
  certificates: string[];
  /** Where the settings were fetched from, when registered by `metadataUrl` (shown; not fetched again). */
  metadataUrl?: string;
}

/** An organization's identity provider. */
export interface SsoProviderRecord {
  /** Unique across the app: lower-case letters, digits and `-`, at most 48 characters. */
  id: string;
  organizationId: string;
  type: SsoProviderType;
  /** Shown on pages, e.g. `Acme Okta`. */
  name: string;
  /** The email domain this provider signs in (lower-case), routed once the organization has verified it. */
  domain: string | null;
  /** Set for `oidc` providers. */
  oidc: StoredOidcConfig | null;
  /** Set for `saml` providers. */
  saml: StoredSamlConfig | null;
  roleMapping: SsoRoleMapping | null;
  createdAt: Date;
}

/** An organization's claim on an email domain, proven by a DNS TXT record. */
export interface SsoDomainRecord {
  /** Lower-case, without a trailing dot. */
  domain: string;
  organizationId: string;
  /** Lower-case hex SHA-256 of the verification token the TXT record must carry. */
  tokenHash: string;
  /** When the TXT record was found; null until then. Only verified domains route sign-ins. */
  verifiedAt: Date | null;
  createdAt: Date;
}

/** What a single-use id is for. */
export type SsoOnceKind = 'assertion' | 'request';

/** Where `sso()` keeps its records. Every implementation passes `runSsoStorageConformance`. */
export interface SsoStorage {
  /** Creates or upgrades the tables; idempotent. `auth.migrate()` runs it. */
  migrate(): Promise<void>;
  /** @returns false when a provider with this id exists (nothing changed). */
  createProvider(provider: SsoProviderRecord): Promise<boolean>;
  getProvider(id: string): Promise<SsoProviderRecord | null>;
  /** The providers of an organization, oldest first. */
  listProviders(organizationId: string): Promise<SsoProviderRecord[]>;
  /**
   * Replaces the settings of a provider of `provider.organizationId` (name, domain, `oidc`, `saml`, role mapping;
   * the id, organization, type and `createdAt` stay as stored).
   * @returns false when the organization has no provider with this id (nothing changed).
   */
  updateProvider(provider: SsoProviderRecord): Promise<boolean>;
  /** Whether a provider of this organization was deleted. */
  deleteProvider(organizationId: string, id: string): Promise<boolean>;
  /**
   * Claims `domain` for the organization with a new token hash, or renews the token of its claim. A claim that
   * was verified is so no longer until the new token is found.
   */
  claimDomain(claim: { domain: string; organizationId: string; tokenHash: string; createdAt: Date }): Promise<void>;
  getDomain(domain: string, organizationId: string): Promise<SsoDomainRecord | null>;
  /** The organization's domain claims, by domain. */
  listDomains(organizationId: string): Promise<SsoDomainRecord[]>;
  /**
   * Marks the organization's claim verified, atomically: a domain is verified for one organization at most.
   * @returns false when there is no such claim or another organization holds the domain verified.
   */
  markDomainVerified(domain: string, organizationId: string, at: Date): Promise<boolean>;
  /** The verified claim on `domain`, or null. */
  verifiedDomain(domain: string): Promise<SsoDomainRecord | null>;
  /** Whether a claim of this organization was deleted. */
  deleteDomain(domain: string, organizationId: string): Promise<boolean>;
  /**
   * Records `id` of `kind` until `untilMs`, once: atomically, of two calls for the same unexpired id one gets
   * true. An id whose time is past (at `nowMs`) may be recorded again.
   */
  rememberOnce(kind: SsoOnceKind, id: string, untilMs: number, nowMs: number): Promise<boolean>;
  /** Uses up a recorded, unexpired id: true once (atomically), then false. */
  takeOnce(kind: SsoOnceKind, id: string, nowMs: number): Promise<boolean>;
  /** Deletes the providers and domain claims of an organization (it was deleted). */
  deleteByOrganization(organizationId: string): Promise<void>;
}
