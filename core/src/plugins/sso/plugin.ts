/**
 * `sso()`: enterprise single sign-on per organization (OIDC and SAML 2.0).
 * @module
 */
import {
  AuthConfigError,
  adapterStorage,
  tokenCipher,
  type AuthPlugin,
  type ErrorCodesOf,
  type TokenCipher,
} from '../../plugin-kit.js';
import { SSO_ERRORS } from './errors.js';
import { isLocalDevelopment, type IssuerPolicy } from './issuer-policy.js';
import { oidcFlow } from './oidc.js';
import { resolveSsoOptions, type SsoOptions } from './options.js';
import { samlSide } from './saml-flow.js';
import { ssoRoutes } from './routes.js';
import type { SsoPluginState } from './state.js';
import { createMemorySsoStorage } from './storage/memory.js';
import { createSqlSsoStorage } from './storage/sql.js';
import type { SsoStorage } from './types.js';

/** `auth.extensions.sso`. */
export interface SsoExtension {
  /** The plugin's storage (providers, domain claims), for admin tools and tests. */
  storage: SsoStorage;
}

/**
 * Enterprise single sign-on per organization, on `organizations()`. Managers of an organization (`managerRoles`:
 * owners and admins by default) register its identity providers and prove its email domains; people then sign in
 * with their work email and are created or linked just in time, joining the organization with a role mapped from
 * the IdP's claims. Routes under `basePath` (JSON, or the no-JS pages; POSTs CSRF-checked):
 *
 * - `GET /sso/sign-in` (page), `POST /sso/sign-in {email | organizationSlug | providerId, callbackUrl?}`: the
 *   redirect to the provider (303, or JSON `{url}`). An email routes only by a domain an organization verified
 *   (404 `SSO_NO_PROVIDER` otherwise): its provider for that domain, else its provider without a domain.
 * - OIDC: the kit's own OAuth/OIDC flow (discovery, PKCE S256, state, nonce, ID token validation, UserInfo) with the
 *   callback at `GET /sso/callback/:provider`; the account is stored as provider `sso-<provider id>-<hash of organization, id and IdP>`.
 * - `GET /sso/manage?organizationId=` (page), `GET /sso/providers?organizationId=`,
 *   `POST /sso/providers/register {organizationId, type: 'oidc', name, issuer, clientId, clientSecret, providerId?,
 *   domain?, scope?, roleAttribute?, roleValues?, defaultRole?}` (the client secret is encrypted at rest with
 *   AES-256-GCM under `secret`, as OAuth tokens are; never shown again), `POST /sso/providers/update
 *   {organizationId, providerId, …}` (only the fields given; a secret or SAML source left empty is kept; the issuer
 *   rules, and the role ceiling on the resulting mapping, as at registration), `POST /sso/providers/delete
 *   {organizationId, providerId}`.
 * - `GET /sso/domains?organizationId=`, `POST /sso/domains/claim {organizationId, domain}` → `{txtName, txtValue}`
 *   (the token is stored as its SHA-256 hash), `POST /sso/domains/verify {organizationId, domain}`: looks up the
 *   TXT records at `_framework-sso.<domain>` through `resolveTxt` (400 `SSO_DOMAIN_UNVERIFIED`, 409
 *   `SSO_DOMAIN_TAKEN` when another organization verified it).
 * - SAML 2.0 (`type: 'saml'`, `metadataXml`, `metadataUrl` (fetched once, at registration, under the issuer rules
 *   below, at most 256 KiB in 10 s) or `entityId` + `ssoUrl` + `certificate`): SP metadata at
 *   `GET /sso/saml/metadata/:provider` (its URL is the SP entity id), the ACS at `POST /sso/saml/acs/:provider`
 *   (HTTP-POST binding; CSRF-exempt by design, the signed response is the proof; an SP-initiated answer must carry
 *   the RelayState sealed in the starting browser's cookie and answer an unanswered request id; assertion ids are
 *   remembered until they expire). IdP-initiated responses only with `allowIdpInitiated`. `samlKeys` signs the
 *   AuthnRequests and decrypts AES-GCM encrypted assertions, both certificates in the SP metadata.
 *
 * Issuers (SSRF): unless `allowPrivateIssuers` (default: only on an `http:` loopback `baseURL`), an OIDC issuer must
 * be `https:` on a host that is not and does not resolve (`lookup`) to a loopback, private, link-local,
 * unique-local, CGNAT, multicast, reserved or unspecified address; checked at registration and before every sign-in
 * and callback (400 `SSO_ISSUER_NOT_ALLOWED`), and so is every URL the flow fetches (discovery, token, UserInfo,
 * JWKS) just before the request, redirects not followed (`fetch`: the client used; by default a `node:http(s)`
 * one that connects only to the address the check passed, closing the DNS-rebinding window). An
 * organization holds at most `maxDomains` claims (default 10; 409 `SSO_DOMAIN_LIMIT`); claiming and verifying count
 * on the login limiter.
 *
 * Provisioning: the sign-in goes through the kit's OAuth account rules and `completeSignIn`, so an account is
 * linked by email only when the IdP reports the email verified and its domain is one this organization proved;
 * then the pre-hijacking defence removes every credential set on that account while its email was unverified. A
 * new member gets the mapped role (`roleMapping`: the highest role any value of the attribute maps to, else the
 * default); an existing member keeps theirs.
 *
 * @throws AuthConfigError (`INVALID_CONFIG`) without `organizations`, without `secret` in `createAuth`, or with
 *   neither `storage` nor a SQL or memory adapter.
 * @example
 * ```ts
 * import { organizations } from '@framework/auth/plugins/organizations';
 * import { sso } from '@framework/auth/plugins/sso';
 *
 * const orgs = organizations({ sendInvitation });
 * const auth = createAuth({
 *   ...config,
 *   plugins: [orgs, sso({ organizations: orgs, roleMapping: { attribute: 'groups', values: { 'it-admins': 'admin' } } })],
 * });
 * await auth.migrate(); // sso_providers, sso_domains, sso_once
 * ```
 */
export function sso(
  options: SsoOptions,
): AuthPlugin<'sso', SsoExtension, Record<never, never>, ErrorCodesOf<typeof SSO_ERRORS>> {
  const o = resolveSsoOptions(options);
  const store = adapterStorage('sso()', o.storage, {
    sql: (db) => createSqlSsoStorage(db),
    memory: () => createMemorySsoStorage(),
  });
  let cipher: TokenCipher | undefined;
  let issuerPolicy: IssuerPolicy | undefined;
  let now: (() => number) | undefined;
  const state: SsoPluginState = {
    storage: () => store.storage,
    cipher: () => cipher!,
    issuerPolicy: () => issuerPolicy!,
    oidc: oidcFlow(
      o,
      () => store.storage,
      () => cipher!,
      () => issuerPolicy!,
      () => now!(),
    ),
    saml: samlSide(o, () => store.storage),
  };
  return {
    id: 'sso',
    errorCodes: SSO_ERRORS,
    init(auth) {
      if (auth.config.secret.length === 0)
        throw new AuthConfigError('Invalid auth config: sso() needs `secret` (it encrypts client secrets with it)');
      store.bind(auth.adapter);
      cipher = tokenCipher(auth.config.secret);
      now = () => auth.clock.now();
      issuerPolicy = {
        // Private issuers by default only in local development: a base URL on http and a loopback host.
        allowPrivate: o.allowPrivateIssuers ?? isLocalDevelopment(auth.originPolicy.baseURL),
        lookup: o.lookup,
      };
      return { storage: store.storage };
    },
    routes: ssoRoutes(o, state),
    signInLinks: [
      { label: 'Sign in with SSO', messageId: 'sso.signIn.title', path: '/sso/sign-in', withCallbackUrl: true },
    ],
    hooks: {
      // An organization's providers and domains go with it.
      async onEvent(event) {
        if (event.type === 'onOrganizationDeleted') await store.storage.deleteByOrganization(event.organization.id);
      },
    },
    async migrate() {
      await store.storage.migrate();
    },
  };
}
