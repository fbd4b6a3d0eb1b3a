/**
 * The builder the one-file-per-provider presets share: default id, name,
 * endpoints or issuer, scope and profile mapping, every one of which the
 * app can override.
 * @module
 */
import { AuthConfigError } from '../../../errors.js';
import type { Profile } from '../../../types.js';
import { oauthProvider } from '../create.js';
import type { OAuthEndpoints, OAuthProvider, ProfileContext, TokenSet, UserProfile } from '../types.js';

export { isTrue, standardClaimsProfile, str } from '../standard-claims.js';

/** Options every preset takes. */
export interface PresetOptions {
  clientId: string;
  clientSecret: string;
  /**
   * Provider id in `/signin/:id`, `/callback/:id` and the stored accounts. Default: the preset's own (e.g.
   * `gitlab`).
   */
  id?: string;
  /** Display name on the sign-in page. Default: the provider's name. */
  name?: string;
  /** Space-separated scopes, replacing the preset's default. */
  scope?: string;
  /** Let a verified email from this provider link to an existing user. Default false. */
  trustEmail?: boolean;
  /** Extra authorization request parameters, merged over the preset's. */
  authorizationParams?: Record<string, string>;
  /** Endpoint overrides (self-hosted instances, tests). */
  endpoints?: Partial<OAuthEndpoints>;
}

/** Options of an OpenID Connect preset: the issuer can be overridden too. */
export interface OidcPresetOptions extends PresetOptions {
  /** Issuer identifier (discovery at `<issuer>/.well-known/openid-configuration`). */
  issuer?: string;
}

/** What a preset file declares. @internal */
export interface PresetSpec<O extends PresetOptions> {
  id: string;
  name: string;
  type: 'oauth' | 'oidc';
  /** OIDC: the issuer for these options. */
  issuer?: (options: O) => string;
  /** OAuth 2.0: the default endpoints for these options (OIDC: discovered unless given). */
  endpoints?: (options: O) => OAuthEndpoints;
  scope: string;
  clientAuth?: 'client_secret_basic' | 'client_secret_post';
  authorizationParams?: Record<string, string>;
  headers?: Record<string, string>;
  tokenErrorsWith200?: boolean;
  skipUserInfo?: boolean;
  /** OIDC: false for a provider that never echoes the nonce. */
  nonce?: boolean;
  /** A custom profile request (a POST, extra calls, a non-Bearer scheme), given the final endpoints. */
  userinfo?: (endpoints: OAuthEndpoints) => (tokens: TokenSet, ctx: ProfileContext) => Promise<Profile>;
  profile: (profile: Profile, tokens: TokenSet, ctx: ProfileContext) => UserProfile | Promise<UserProfile>;
}

/** Builds a preset factory from its spec. @internal */
export function definePreset<O extends PresetOptions>(spec: PresetSpec<O>): (options: O) => OAuthProvider {
  return (options: O) => {
    const endpoints: OAuthEndpoints = {
      ...(spec.endpoints?.(options ?? ({} as O)) ?? {}),
      ...(options?.endpoints ?? {}),
    };
    const issuer =
      spec.type === 'oidc'
        ? ((options as OidcPresetOptions | undefined)?.issuer ?? spec.issuer?.(options ?? ({} as O)))
        : undefined;
    return oauthProvider({
      id: options?.id ?? spec.id,
      name: options?.name ?? spec.name,
      type: spec.type,
      clientId: options?.clientId,
      clientSecret: options?.clientSecret,
      ...(issuer !== undefined ? { issuer } : {}),
      endpoints,
      scope: options?.scope ?? spec.scope,
      ...(spec.clientAuth ? { clientAuth: spec.clientAuth } : {}),
      authorizationParams: { ...(spec.authorizationParams ?? {}), ...(options?.authorizationParams ?? {}) },
      ...(spec.headers ? { headers: spec.headers } : {}),
      trustEmail: options?.trustEmail ?? false,
      ...(spec.tokenErrorsWith200 ? { tokenErrorsWith200: true } : {}),
      ...(spec.skipUserInfo ? { skipUserInfo: true } : {}),
      ...(spec.nonce === false ? { nonce: false } : {}),
      ...(spec.userinfo ? { userinfo: spec.userinfo(endpoints) } : {}),
      profile: spec.profile,
    });
  };
}

/**
 * A required preset option (a tenant, a domain, a region).
 * @throws AuthConfigError (`INVALID_CONFIG`) when it is missing or empty.
 */
export function required(value: string | undefined, preset: string, option: string): string {
  if (typeof value !== 'string' || value.length === 0)
    throw new AuthConfigError(`Invalid provider: "${preset}" needs the \`${option}\` option`);
  return value;
}

/**
 * GET (or POST) a JSON profile API with the access token.
 * @throws Error naming the URL and HTTP status when the answer is not 2xx or not a JSON object.
 */
export async function fetchJson(
  ctx: ProfileContext,
  url: string,
  init: { method?: 'GET' | 'POST'; authorization: string; headers?: Record<string, string> },
): Promise<Profile> {
  const res = await ctx.fetch(url, {
    method: init.method ?? 'GET',
    headers: { authorization: init.authorization, accept: 'application/json', ...(init.headers ?? {}) },
  });
  if (!res.ok) throw new Error(`${new URL(url).origin}${new URL(url).pathname} answered HTTP ${res.status}`);
  const body = (await res.json()) as unknown;
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw new Error(`${new URL(url).pathname} did not answer a JSON object`);
  return body as Profile;
}
