/**
 * OIDC SSO through the kit's own OAuth/OIDC flow (discovery, PKCE S256, state, nonce, ID token validation,
 * UserInfo): a provider object built from the stored settings, run at `/sso/callback/:provider`, with the OAuth
 * account rules and the pre-hijacking defence of `completeSignIn`, and the organization membership written inside
 * the sign-in.
 * @module
 * @internal
 */
import {
  createOAuth2Provider,
  oauthCallbackAction,
  oauthSignInAction,
  sha256Hex,
  type ActionResult,
  type OAuthProvider,
  type RouteContext,
  type TokenCipher,
  type UserProfile,
} from '../../plugin-kit.js';
import { vouchedEmail } from './domains.js';
import { ssoError } from './errors.js';
import { issuerFetch, type IssuerPolicy } from './issuer-policy.js';
import type { ResolvedSsoOptions } from './options.js';
import { mappedRole, secretContext } from './providers.js';
import type { SsoProviderRecord, SsoStorage } from './types.js';

/**
 * The account provider of an SSO provider's sign-ins (`account.provider`): `sso-<provider id>-<10 hex>`, the hex
 * from a SHA-256 of the organization, the provider id and the IdP (issuer or entity id). Subjects are unique per
 * IdP only, and a provider id freed by a deletion may be registered again by another organization: its accounts
 * never match the old ones, so no IdP signs in as a user another IdP's sign-ins created.
 */
export async function accountProviderId(record: SsoProviderRecord): Promise<string> {
  const idp = record.oidc?.issuer ?? record.saml?.entityId ?? '';
  return `sso-${record.id}-${(await sha256Hex(`${record.organizationId}\n${record.id}\n${idp}`)).slice(0, 10)}`;
}

/** The callback route of a provider, under `basePath`. */
export const callbackPath = (providerId: string) => `/sso/callback/${providerId}`;

/**
 * Runs the OIDC flow for stored providers, one provider object per stored settings (its discovery cached there).
 * Every request a provider makes goes through {@link issuerFetch} under `issuerPolicy` (decided at `init`); `now` is
 * the auth's clock (ms), which stamps a vouched email's verification time.
 */
export function oidcFlow(
  o: ResolvedSsoOptions,
  storage: () => SsoStorage,
  cipher: () => TokenCipher,
  issuerPolicy: () => IssuerPolicy,
  now: () => number,
) {
  const built = new Map<string, { settings: string; provider: OAuthProvider }>();

  /**
   * The profile: standard claims; the email counts as verified only when the IdP says so and its domain is one
   * this provider's organization has proven (an IdP never vouches for addresses outside its organization's domains).
   */
  async function profileOf(record: SsoProviderRecord, claims: Record<string, unknown>): Promise<UserProfile> {
    const email = typeof claims.email === 'string' ? claims.email : null;
    const vouched = await vouchedEmail(storage(), record.organizationId, email, claims.email_verified === true);
    return {
      id: String(claims.sub),
      email,
      name: typeof claims.name === 'string' ? claims.name : null,
      image: typeof claims.picture === 'string' ? claims.picture : null,
      emailVerified: vouched ? new Date(now()) : null,
    };
  }

  async function providerFor(record: SsoProviderRecord): Promise<OAuthProvider> {
    const oidc = record.oidc;
    if (!oidc) throw ssoError('SSO_PROVIDER_NOT_FOUND');
    const settings = JSON.stringify([record.name, oidc]);
    const cached = built.get(record.id);
    if (cached?.settings === settings) return cached.provider;
    const secret = await cipher().decrypt(oidc.clientSecret, secretContext(record.id));
    if (secret === null)
      throw ssoError('SSO_PROVIDER_INVALID', 'The client secret could not be read; register the provider again');
    const provider = createOAuth2Provider({
      id: await accountProviderId(record),
      name: record.name,
      issuer: oidc.issuer,
      clientId: oidc.clientId,
      clientSecret: secret,
      ...(oidc.scope ? { scope: oidc.scope } : {}),
      // Discovery, token, UserInfo and JWKS URLs held to the issuer's rules, redirects not followed.
      fetch: issuerFetch(issuerPolicy(), o.fetch),
      // The profile below marks an email verified only for a domain the organization proved.
      trustEmail: true,
      profile: (claims) => profileOf(record, claims),
    });
    built.set(record.id, { settings, provider });
    return provider;
  }

  return {
    /** `POST /sso/sign-in` for an OIDC provider: the redirect to the IdP (303, or JSON `{url}`). */
    async start(ctx: RouteContext, record: SsoProviderRecord): Promise<ActionResult> {
      return oauthSignInAction(ctx, await providerFor(record), { callbackPath: callbackPath(record.id) });
    },
    /** `GET|POST /sso/callback/:provider`: the sign-in, and the membership with the mapped role. */
    async callback(ctx: RouteContext, record: SsoProviderRecord): Promise<ActionResult> {
      const access = o.access();
      return oauthCallbackAction(ctx, await providerFor(record), {
        callbackPath: callbackPath(record.id),
        async afterPersist(user, claims) {
          const role = mappedRole(record.roleMapping ?? o.roleMapping, claims, access.roles, access.defaultRole);
          await access.join(record.organizationId, user.id, role);
        },
      });
    },
    forget(providerId: string) {
      built.delete(providerId);
    },
  };
}
