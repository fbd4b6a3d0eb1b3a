/**
 * `device`: an Apple-style OpenID Connect provider ("Sign in with Apple":
 * https://developer.apple.com/documentation/sign_in_with_apple).
 * @module
 */
import type { SignJWT } from 'jose/jwt/sign';
import type { importPKCS8 } from 'jose/key/import';
import type { Profile } from '../../../types.js';
import { oauthProvider } from '../create.js';
import type { OAuthProvider, ProfileContext } from '../types.js';

export interface DeviceOptions {
  /** Provider id in `/signin/:id` and the stored accounts. Default `device` (`apple()` defaults to `apple`). */
  id?: string;
  /** The Services ID (client_id). */
  clientId: string;
  /** Apple Developer Team ID: the `iss` of the client secret. */
  teamId: string;
  /** Key ID of the Sign in with Apple private key: the `kid` of the client secret. */
  keyId: string;
  /** The PKCS#8 PEM private key (P-256) downloaded from Apple. */
  privateKey: string;
  /** Default `name email`. */
  scope?: string;
  /** Issuer override (tests). Default `https://appleid.apple.com`. */
  issuer?: string;
  /** Lifetime of the generated client secret, in seconds. Default 3600; Apple allows up to 15777000 (6 months). */
  clientSecretTtl?: number;
  /** Link to an existing user by a verified email. Default false. */
  trustEmail?: boolean;
}

let signing: Promise<{ SignJWT: typeof SignJWT; importPKCS8: typeof importPKCS8 }> | undefined;

/** The jose modules the client secret is signed with, loaded once per process (not on a cold import: issue 39). */
function loadSigning() {
  return (signing ??= Promise.all([import('jose/jwt/sign'), import('jose/key/import')]).then(([s, k]) => ({
    SignJWT: s.SignJWT,
    importPKCS8: k.importPKCS8,
  })));
}

/**
 * Makes the client secret Apple expects: an ES256 JWT with `iss` = team
 * id, `sub` = client id, `aud` = the issuer, signed with the team's key, and
 * caches it until a minute before it expires. The signing modules start loading here, when the provider is
 * configured; a failed load is reported by the first call.
 */
export function appleClientSecret(
  options: Pick<DeviceOptions, 'clientId' | 'teamId' | 'keyId' | 'privateKey' | 'issuer' | 'clientSecretTtl'>,
): () => Promise<string> {
  const ttl = options.clientSecretTtl ?? 3600;
  const audience = options.issuer ?? 'https://appleid.apple.com';
  let cached: { value: string; exp: number } | undefined;
  let key: Promise<CryptoKey> | undefined;
  loadSigning().catch(() => {});
  return async () => {
    const now = Math.floor(Date.now() / 1000);
    if (cached && cached.exp - 60 > now) return cached.value;
    const { SignJWT, importPKCS8 } = await loadSigning();
    key ??= importPKCS8(options.privateKey, 'ES256');
    const exp = now + ttl;
    const value = await new SignJWT({})
      .setProtectedHeader({ alg: 'ES256', kid: options.keyId })
      .setIssuer(options.teamId)
      .setSubject(options.clientId)
      .setAudience(audience)
      .setIssuedAt(now)
      .setExpirationTime(exp)
      .sign(await key);
    cached = { value, exp };
    return value;
  };
}

/**
 * Maps Apple's ID token claims to a user profile. Apple sends the name only
 * on the first sign-in, as the `user` JSON field of the form_post callback.
 */
export function deviceProfile(claims: Profile, ctx: Pick<ProfileContext, 'callbackParams'>) {
  let name: string | null = null;
  const user = ctx.callbackParams.get('user');
  if (user) {
    try {
      const parsed = JSON.parse(user) as { name?: { firstName?: string; lastName?: string } };
      const parts = [parsed.name?.firstName, parsed.name?.lastName].filter(
        (p): p is string => typeof p === 'string' && p.length > 0,
      );
      if (parts.length > 0) name = parts.join(' ');
    } catch {
      name = null;
    }
  }
  const verified = claims.email_verified === true || claims.email_verified === 'true';
  return {
    id: String(claims.sub),
    email: (claims.email as string | undefined) ?? null,
    name,
    image: null,
    emailVerified: verified ? new Date() : null,
  };
}

/**
 * Apple-style sign-in: OIDC with `response_mode=form_post` (the callback is
 * a POST from Apple, so it needs HTTPS and a `SameSite=None` flow cookie)
 * and a client secret generated from the team's private key.
 * @example
 * ```ts
 * device({ clientId: 'com.example.web', teamId: 'ABCDE12345', keyId: 'KEY123', privateKey: process.env.APPLE_KEY! })
 * ```
 */
export function device(options: DeviceOptions): OAuthProvider {
  return oauthProvider({
    id: options?.id ?? 'device',
    name: 'Apple',
    type: 'oidc',
    clientId: options?.clientId,
    clientSecret: appleClientSecret(options),
    issuer: options?.issuer ?? 'https://appleid.apple.com',
    endpoints: {},
    scope: options?.scope ?? 'name email',
    responseMode: 'form_post',
    clientAuth: 'client_secret_post',
    trustEmail: options?.trustEmail ?? false,
    // Apple has no UserInfo endpoint: every claim is in the ID token.
    skipUserInfo: true,
    profile: (claims, _tokens, ctx) => deviceProfile(claims, ctx),
  });
}

/** Options of {@link apple}: those of {@link device}. */
export type AppleOptions = DeviceOptions;

/**
 * Apple sign-in under its real name: {@link device} with the default id `apple`.
 * @example
 * ```ts
 * apple({ clientId: 'com.example.web', teamId: 'ABCDE12345', keyId: 'KEY123', privateKey: process.env.APPLE_KEY! })
 * ```
 */
export function apple(options: AppleOptions): OAuthProvider {
  return device({ ...options, id: options?.id ?? 'apple' });
}
