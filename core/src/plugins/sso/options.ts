/**
 * The options of `sso()` and their checks.
 * @module
 */
import { AuthConfigError, type AuthPlugin } from '../../plugin-kit.js';
import { organizationsAccess, type OrganizationsAccess } from '../organizations/index.js';
import { dnsLookup, type LookupAddresses } from './issuer-policy.js';
import { checkSamlSpKeys } from './saml/keys.js';
import type { SamlSpKeys } from './saml/types.js';
import type { SsoRoleMapping, SsoStorage } from './types.js';

/** Looks up the TXT records of a host name: each record as its character-strings (as `node:dns` answers). */
export type ResolveTxt = (hostname: string) => Promise<string[][]>;

/** Options of `sso()`. */
export interface SsoOptions {
  /** The `organizations()` plugin object, also listed in `createAuth({ plugins })`: providers belong to its organizations. */
  organizations: AuthPlugin<'organizations', any, any, any>;
  /** Where providers, domain claims and single-use ids live. Default: the auth adapter's database (or memory). */
  storage?: SsoStorage;
  /**
   * The DNS TXT lookup for domain verification. Default `resolveTxt` of `node:dns/promises`; tests and runtimes
   * without `node:dns` pass their own (DNS over HTTPS, say).
   */
  resolveTxt?: ResolveTxt;
  /**
   * The role mapping of providers registered without one: `attribute` (claim or SAML attribute name) and
   * `values` (value → organization role). Default: no attribute, every new member gets `defaultRole`
   * (`member`, or the organizations' `defaultRole`).
   */
  roleMapping?: Partial<SsoRoleMapping>;
  /**
   * Whether OIDC issuers may be plain `http:` or on loopback, private (RFC 1918), link-local (incl.
   * 169.254.169.254), unique-local, CGNAT, multicast, reserved or unspecified addresses. Default: true only when
   * `createAuth({ baseURL })` (or `AUTH_URL`) is `http:` on a loopback host (local development), else false: the
   * issuer must then be `https:` on a host that is not and does not resolve to such an address, checked at
   * registration and again before each sign-in (400 `SSO_ISSUER_NOT_ALLOWED`). A SAML `metadataUrl` is held to the
   * same rules when it is fetched, at registration.
   */
  allowPrivateIssuers?: boolean;
  /**
   * Resolves an issuer's host name to all its addresses, for `allowPrivateIssuers: false`. Default `lookup` of
   * `node:dns/promises` with `{ all: true }`, loaded on first use; tests and runtimes without `node:dns` pass their own.
   */
  lookup?: LookupAddresses;
  /**
   * The `fetch` the server's requests to OIDC identity providers go through (discovery, token, UserInfo, JWKS),
   * e.g. an egress proxy's. Unless private issuers are allowed, each URL is first checked as the issuer is (https,
   * every address public; 400 `SSO_ISSUER_NOT_ALLOWED`) and redirects are not followed. A SAML provider's
   * `metadataUrl` is fetched through it too. Default: with private issuers allowed, the global `fetch`; otherwise
   * a `node:http(s)` client whose socket lookup is `lookup` plus the same check, so the connection goes to the
   * address that was checked (no DNS-rebinding window). A `fetch` given here resolves names itself: the check runs
   * before it, but the address it connects to is its own (its proxy must refuse internal destinations).
   */
  fetch?: typeof fetch;
  /** The most domain claims (verified or not) an organization may hold. Default 10; an integer 1–1000. */
  maxDomains?: number;
  /** SAML: accept responses the IdP sends without an AuthnRequest of ours (IdP-initiated). Default false. */
  allowIdpInitiated?: boolean;
  /** SAML: the clock skew allowed on `NotBefore` / `NotOnOrAfter`, in seconds. Default 60. */
  clockSkewSeconds?: number;
  /**
   * SAML: this app's own key pairs as a service provider (RSA key + its X.509 certificate, PEM), for every SAML
   * provider. `signing` signs every AuthnRequest (HTTP-Redirect `SigAlg`/`Signature`, `signatureAlgorithm`
   * `sha256` by default or `sha512`); `encryption` decrypts assertions the IdP encrypts to its certificate
   * (`requireEncryptedAssertions` refuses plain ones). Both certificates are published in the SP metadata
   * (`KeyDescriptor use="signing"` with `AuthnRequestsSigned="true"`, `use="encryption"`). Default: none (requests
   * unsigned, encrypted assertions refused). Checked at `createAuth` (`INVALID_CONFIG` for a key that is not RSA, a
   * certificate of another key, or unreadable PEM).
   * @example
   * ```ts
   * sso({ organizations: orgs, samlKeys: { signing: { privateKey: env.SAML_SP_KEY, certificate: env.SAML_SP_CERT } } });
   * ```
   */
  samlKeys?: SamlSpKeys;
}

/** The options with defaults applied. @internal */
export interface ResolvedSsoOptions {
  access: () => OrganizationsAccess;
  storage: SsoStorage | undefined;
  resolveTxt: ResolveTxt;
  roleMapping: Partial<SsoRoleMapping>;
  allowIdpInitiated: boolean;
  clockSkewSeconds: number;
  /** Undefined: decided from the base URL at `init`. */
  allowPrivateIssuers: boolean | undefined;
  lookup: LookupAddresses;
  fetch: typeof fetch | undefined;
  maxDomains: number;
  samlKeys: SamlSpKeys | undefined;
}

const bad = (message: string) => new AuthConfigError(`Invalid auth config: sso() ${message}`);

/** @throws AuthConfigError (`INVALID_CONFIG`) without `organizations`, or for malformed options. */
export function resolveSsoOptions(o: SsoOptions): ResolvedSsoOptions {
  if (!o || typeof o !== 'object' || !o.organizations) throw bad('needs `organizations` (the organizations() plugin)');
  let access: OrganizationsAccess;
  try {
    access = organizationsAccess(o.organizations);
  } catch {
    throw bad('`organizations` must be the plugin object organizations() returned');
  }
  if (o.resolveTxt !== undefined && typeof o.resolveTxt !== 'function') throw bad('`resolveTxt` must be a function');
  if (o.lookup !== undefined && typeof o.lookup !== 'function') throw bad('`lookup` must be a function');
  if (o.fetch !== undefined && typeof o.fetch !== 'function') throw bad('`fetch` must be a function');
  if (o.allowPrivateIssuers !== undefined && typeof o.allowPrivateIssuers !== 'boolean')
    throw bad('`allowPrivateIssuers` must be a boolean');
  const maxDomains = o.maxDomains ?? 10;
  if (!Number.isInteger(maxDomains) || maxDomains < 1 || maxDomains > 1000)
    throw bad('`maxDomains` must be an integer 1–1000');
  const keyProblem = checkSamlSpKeys(o.samlKeys);
  if (keyProblem) throw bad(`\`samlKeys\` ${keyProblem}`);
  const skew = o.clockSkewSeconds ?? 60;
  if (!Number.isInteger(skew) || skew < 0 || skew > 600) throw bad('`clockSkewSeconds` must be an integer 0–600');
  return {
    access: () => access,
    storage: o.storage,
    // Loaded on first use, so runtimes without `node:dns` load the plugin (and pass their own lookup).
    resolveTxt: o.resolveTxt ?? (async (hostname) => (await import('node:dns/promises')).resolveTxt(hostname)),
    roleMapping: o.roleMapping ?? {},
    allowIdpInitiated: o.allowIdpInitiated === true,
    clockSkewSeconds: skew,
    allowPrivateIssuers: o.allowPrivateIssuers,
    lookup: o.lookup ?? dnsLookup,
    fetch: o.fetch,
    samlKeys: o.samlKeys,
    maxDomains,
  };
}
