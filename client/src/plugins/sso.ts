/**
 * `@framework/auth-client/plugins/sso`: browser functions for the routes of the server's `sso()` plugin
 * (`@framework/auth/plugins/sso`): signing in with an organization's identity provider, and managing an
 * organization's providers and domains (its owners and admins). Each resolves to an {@link AccountResult} and
 * never rejects; bind them to a client with `auth.actions(sso)`.
 *
 * Errors: `SSO_NO_PROVIDER` (404: no verified domain or provider for the email), `SSO_PROVIDER_INVALID` (400),
 * `SSO_PROVIDER_EXISTS` (409), `SSO_PROVIDER_NOT_FOUND` (404), `SSO_DOMAIN_INVALID` (400), `SSO_DOMAIN_NOT_CLAIMED`
 * (404), `SSO_DOMAIN_UNVERIFIED` (400), `SSO_DOMAIN_TAKEN` (409), `FORBIDDEN` (403: not a manager),
 * `TENANT_NOT_FOUND` (404).
 * @module
 */
import { authRequest, type AccountResult, type AuthClientOptions } from '@framework/auth-client';

/** An identity provider as the server shows it (never its client secret). */
export interface SsoProvider {
  id: string;
  organizationId: string;
  type: 'oidc' | 'saml';
  name: string;
  domain: string | null;
  oidc?: { issuer: string; clientId: string; scope: string | null };
  saml?: { entityId: string; ssoUrl: string; metadataUrl?: string };
  roleMapping: { attribute: string; values: Record<string, string>; defaultRole?: string } | null;
  /** ISO 8601. */
  createdAt: string;
}

/** A domain claim: the TXT record's name, and whether it was found. */
export interface SsoDomain {
  domain: string;
  txtName: string;
  verified: boolean;
  verifiedAt: string | null;
}

/**
 * Starts a sign-in with the identity provider of the email's verified domain, of an organization (by slug), or a
 * provider by id: `POST {basePath}/sso/sign-in`. `data.url` is the provider's page to send the browser to.
 * @example
 * ```ts
 * const { ok, data } = await signInWithSso({ email: 'ada@acme.com', callbackUrl: '/dashboard' });
 * if (ok) location.assign(data!.url);
 * ```
 */
export const signInWithSso = (
  input: ({ email: string } | { organizationSlug: string } | { providerId: string }) & { callbackUrl?: string },
  options?: AuthClientOptions,
) => authRequest<{ url: string }>('/sso/sign-in', options, input);

/**
 * Registers an identity provider for an organization (its owners and admins): `POST
 * {basePath}/sso/providers/register`. OIDC: `issuer`, `clientId`, `clientSecret`; SAML: `metadataXml`,
 * `metadataUrl` (the server fetches it once, now: 400 `SSO_ISSUER_NOT_ALLOWED` for a refused URL,
 * `SSO_PROVIDER_INVALID` when it does not answer with IdP metadata), or `entityId`, `ssoUrl` and `certificate`. `roleValues` maps claim values to roles (JSON, or lines `value=role`).
 * @example
 * ```ts
 * await registerSsoProvider({
 *   organizationId, type: 'oidc', name: 'Acme Okta', issuer: 'https://acme.okta.com',
 *   clientId, clientSecret, domain: 'acme.com', roleAttribute: 'groups', roleValues: 'acme-admins=admin',
 * });
 * ```
 */
export const registerSsoProvider = (
  input: {
    organizationId: string;
    type: 'oidc' | 'saml';
    name: string;
    providerId?: string;
    domain?: string;
    issuer?: string;
    clientId?: string;
    clientSecret?: string;
    scope?: string;
    metadataXml?: string;
    /** Fetched once by the server (https, public address unless the server allows private issuers). */
    metadataUrl?: string;
    entityId?: string;
    ssoUrl?: string;
    certificate?: string;
    roleAttribute?: string;
    roleValues?: string;
    defaultRole?: string;
  },
  options?: AuthClientOptions,
) => authRequest<{ provider: SsoProvider }>('/sso/providers/register', options, input);

/**
 * Changes a registered provider (its organization's owners and admins): `POST {basePath}/sso/providers/update`.
 * Only the fields given change; an empty `clientSecret` or `metadataXml` keeps the stored one, and an empty
 * `domain` removes it. `type` and `providerId` cannot change (400 `SSO_PROVIDER_INVALID`); a new `issuer` or
 * `metadataUrl` passes the same checks as at registration (400 `SSO_ISSUER_NOT_ALLOWED`); another organization's
 * provider answers 404 `SSO_PROVIDER_NOT_FOUND`.
 * @example
 * ```ts
 * await updateSsoProvider({ organizationId, providerId: 'acme', name: 'Acme Entra ID', clientId: newClientId });
 * ```
 */
export const updateSsoProvider = (
  input: { organizationId: string; providerId: string } & Partial<
    Omit<Parameters<typeof registerSsoProvider>[0], 'organizationId' | 'providerId' | 'type'>
  >,
  options?: AuthClientOptions,
) => authRequest<{ provider: SsoProvider }>('/sso/providers/update', options, input);

/**
 * The identity providers of an organization: `GET {basePath}/sso/providers?organizationId=`.
 * @example
 * ```ts
 * const { data } = await listSsoProviders({ organizationId });
 * ```
 */
export const listSsoProviders = (
  input: { organizationId: string },
  options?: AuthClientOptions,
): Promise<AccountResult<{ providers: SsoProvider[] }>> =>
  authRequest(`/sso/providers?organizationId=${encodeURIComponent(input.organizationId)}`, options);

/**
 * Removes an identity provider: `POST {basePath}/sso/providers/delete`.
 * @example
 * ```ts
 * await deleteSsoProvider({ organizationId, providerId: 'acme' });
 * ```
 */
export const deleteSsoProvider = (input: { organizationId: string; providerId: string }, options?: AuthClientOptions) =>
  authRequest('/sso/providers/delete', options, input);

/**
 * Claims an email domain: `POST {basePath}/sso/domains/claim`. Publish a TXT record named `data.txtName` with the
 * value `data.txtValue` (shown once), then call {@link verifySsoDomain}.
 * @example
 * ```ts
 * const { data } = await claimSsoDomain({ organizationId, domain: 'acme.com' });
 * // DNS: _framework-sso.acme.com TXT "framework-sso-verification=…"
 * ```
 */
export const claimSsoDomain = (input: { organizationId: string; domain: string }, options?: AuthClientOptions) =>
  authRequest<{ domain: string; txtName: string; txtValue: string }>('/sso/domains/claim', options, input);

/**
 * Looks up the domain's TXT record and marks the claim verified: `POST {basePath}/sso/domains/verify`.
 * @example
 * ```ts
 * const { ok, error } = await verifySsoDomain({ organizationId, domain: 'acme.com' });
 * ```
 */
export const verifySsoDomain = (input: { organizationId: string; domain: string }, options?: AuthClientOptions) =>
  authRequest<{ domain: SsoDomain }>('/sso/domains/verify', options, input);

/**
 * The domain claims of an organization: `GET {basePath}/sso/domains?organizationId=`.
 * @example
 * ```ts
 * const { data } = await listSsoDomains({ organizationId });
 * ```
 */
export const listSsoDomains = (
  input: { organizationId: string },
  options?: AuthClientOptions,
): Promise<AccountResult<{ domains: SsoDomain[] }>> =>
  authRequest(`/sso/domains?organizationId=${encodeURIComponent(input.organizationId)}`, options);

export type { AccountResult };
